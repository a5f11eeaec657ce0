import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { resolveInScope } from './path-scope.js';
import { looksBinary, readRegularFile, refusal, specialKind, statOrNull } from './file-kind.js';
import { byMtime, walkFiles } from './walk-files.js';
import { toolError, type Tool, type ToolContext } from './tool-types.js';

const rel = (root: string, f: string) => path.relative(root, f).split(path.sep).join('/');

async function searchRoot(input: string | undefined, ctx: ToolContext) {
  const r = await resolveInScope(input ?? ctx.scope.project, ctx.scope);
  if (!r.ok) return r;
  const st = await statOrNull(r.path);
  if (!st) return { ok: false as const, message: `Path does not exist: ${input}` };
  const special = specialKind(st);
  if (special) return { ok: false as const, message: refusal(input ?? r.path, special) };
  return { ok: true as const, path: r.path, isDir: st.isDirectory() };
}

const globInput = z.object({
  pattern: z.string().describe('The glob pattern to match files against'),
  path: z.string().optional().describe('The directory to search in. If not specified, the project folder is used.'),
});

export const globTool: Tool<z.infer<typeof globInput>> = {
  name: 'Glob',
  readOnly: true,
  inputSchema: globInput,
  description:
    '- Fast file pattern matching tool that works with any codebase size\n- Supports glob patterns like "**/*.js" or "src/**/*.ts"\n- Returns matching file paths sorted by modification time\n- Use this tool when you need to find files by name patterns',
  async run({ pattern, path: dir }, ctx) {
    const root = await searchRoot(dir, ctx);
    if (!root.ok) return toolError(root.message);
    if (!root.isDir) return toolError(`${dir} is not a directory.`);
    const match = picomatch(pattern, { dot: true });
    const files = (await walkFiles(root.path, ctx.signal)).filter((f) => match(rel(root.path, f)));
    if (files.length === 0) return { content: 'No files found' };
    const sorted = await byMtime(files);
    const max = ctx.limits.globMaxResults;
    const shown = sorted.slice(0, max).join('\n');
    return { content: sorted.length > max ? `${shown}\n(Results are truncated. Consider using a more specific path or pattern.)` : shown };
  },
};

const grepInput = z.object({
  pattern: z.string().describe('The regular expression pattern to search for in file contents'),
  path: z.string().optional().describe('File or directory to search in. Defaults to the project folder.'),
  glob: z.string().optional().describe('Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}")'),
  output_mode: z.enum(['content', 'files_with_matches', 'count']).optional().describe('Output mode; defaults to "files_with_matches".'),
  '-i': z.boolean().optional().describe('Case insensitive search'),
  '-n': z.boolean().optional().describe('Show line numbers in output (content mode). Defaults to true.'),
  head_limit: z.number().int().positive().optional().describe('Limit output to the first N lines/entries'),
});

export const grepTool: Tool<z.infer<typeof grepInput>> = {
  name: 'Grep',
  readOnly: true,
  inputSchema: grepInput,
  description:
    'A search tool over file contents.\n- Supports full regex syntax (e.g. "log.*Error", "function\\s+\\w+")\n- Filter files with the glob parameter (e.g. "*.js", "**/*.tsx")\n- Output modes: "content" shows matching lines, "files_with_matches" shows only file paths (default), "count" shows match counts\n- Skips binary files, very large files, .git and node_modules',
  async run(input, ctx) {
    let re: RegExp;
    try {
      re = new RegExp(input.pattern, input['-i'] ? 'i' : '');
    } catch (e) {
      return toolError(`Invalid regular expression: ${(e as Error).message}`);
    }
    const root = await searchRoot(input.path, ctx);
    if (!root.ok) return toolError(root.message);
    const base = root.isDir ? root.path : path.dirname(root.path);
    let files = root.isDir ? await walkFiles(root.path, ctx.signal) : [root.path];
    if (input.glob) {
      const match = picomatch(input.glob, { dot: true, basename: !input.glob.includes('/') });
      files = files.filter((f) => match(rel(base, f)));
    }
    const mode = input.output_mode ?? 'files_with_matches';
    const hits: { file: string; lines: [number, string][] }[] = [];
    for (const file of await byMtime(files)) {
      if (ctx.signal?.aborted) break;
      // Only regular files, opened so that one swapped for a FIFO cannot block the search.
      const buf = await readRegularFile(file, ctx.limits.grepMaxFileBytes);
      if (!buf || looksBinary(buf)) continue;
      const lines: [number, string][] = [];
      buf.toString('utf8').split(/\r?\n/).forEach((line, i) => {
        if (re.test(line)) lines.push([i + 1, line]);
      });
      if (lines.length > 0) hits.push({ file, lines });
    }
    if (hits.length === 0) return { content: mode === 'count' ? 'No matches found' : 'No files found' };
    let out: string[];
    if (mode === 'files_with_matches') out = hits.map((h) => h.file);
    else if (mode === 'count') out = hits.map((h) => `${h.file}:${h.lines.length}`);
    else {
      const numbered = input['-n'] ?? true;
      out = hits.flatMap((h) => h.lines.map(([n, l]) => (numbered ? `${h.file}:${n}:${l}` : `${h.file}:${l}`)));
    }
    const limited = input.head_limit ? out.slice(0, input.head_limit) : out;
    const header = mode === 'files_with_matches' ? `Found ${hits.length} file${hits.length === 1 ? '' : 's'}\n` : '';
    return { content: header + limited.join('\n') };
  },
};
