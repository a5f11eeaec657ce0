import { z } from 'zod';
import { resolveInScope } from './path-scope.js';
import { EDITABLE_MAX_BYTES, openRegularFile, refusal, specialKind, statOrNull } from './file-kind.js';
import { readLineWindow } from './line-window.js';
import { toolError, type Tool } from './tool-types.js';

const input = z.object({
  file_path: z.string().describe('The absolute path to the file to read'),
  offset: z.number().int().nonnegative().optional().describe('The line number to start reading from. Only provide if the file is too large to read at once'),
  limit: z.number().int().positive().optional().describe('The number of lines to read. Only provide if the file is too large to read at once.'),
});

/**
 * Read, as Claude Code: `cat -n` style numbered lines, line ranges, size limit, binary refused. Only the
 * lines asked for are read (streamed, bounded memory), and a FIFO, device or socket is refused.
 */
export const readTool: Tool<z.infer<typeof input>> = {
  name: 'Read',
  readOnly: true,
  inputSchema: input,
  description: [
    'Reads a file from the local filesystem. You can access any file in the project folder and the memory folders directly by using this tool.',
    'Usage:',
    '- The file_path parameter should be an absolute path (a path relative to the project folder also works)',
    '- By default, it reads up to 2000 lines starting from the beginning of the file',
    "- You can optionally specify a line offset and limit (especially handy for long files), but it's recommended to read the whole file by not providing these parameters",
    '- Any lines longer than 2000 characters will be truncated',
    '- Results are returned using cat -n format, with line numbers starting at 1',
  ].join('\n'),
  async run({ file_path, offset, limit }, ctx) {
    const r = await resolveInScope(file_path, ctx.scope);
    if (!r.ok) return toolError(r.message);
    const st = await statOrNull(r.path);
    if (!st) return toolError(`File does not exist: ${file_path}`);
    if (st.isDirectory()) return toolError(`${file_path} is a directory, not a file. Use Glob to list files.`);
    const special = specialKind(st);
    if (special) return toolError(refusal(file_path, special));
    const { readMaxBytes, readDefaultLines, readMaxLineChars } = ctx.limits;
    if (st.size > readMaxBytes && offset === undefined && limit === undefined) {
      return toolError(
        `File content (${Math.round(st.size / 1024)} KB) exceeds maximum allowed size (${Math.round(readMaxBytes / 1024)} KB). Please use offset and limit parameters to read specific portions of the file, or use the Grep tool to search for specific content.`,
      );
    }
    const opened = await openRegularFile(r.path, file_path);
    if (!opened.ok) return toolError(opened.message);
    const start = Math.max(0, (offset ?? 1) - 1);
    let window;
    try {
      window = await readLineWindow(opened.handle, {
        start,
        count: limit ?? readDefaultLines,
        maxLineChars: readMaxLineChars,
        maxBytes: readMaxBytes,
        hashWhole: opened.size <= EDITABLE_MAX_BYTES,
        signal: ctx.signal,
      });
    } finally {
      await opened.handle.close();
    }
    if (window.binary) return toolError(`${file_path} is a binary file; Read only shows text files.`);
    if (window.digest) ctx.readState.recordDigest(r.path, window.digest);
    if (window.totalLines === 0) return { content: '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>' };
    if (window.lines.length === 0) {
      return { content: `<system-reminder>Warning: the file is shorter than the provided offset (${offset}). The file has ${window.totalLines} lines.</system-reminder>` };
    }
    const out = window.lines.map(([n, text, cut]) => `${String(n).padStart(6)}\t${text}${cut ? '… [line truncated]' : ''}`);
    if (window.stoppedAtBytes) {
      const next = window.lines.at(-1)![0] + 1;
      out.push(`<system-reminder>Output stopped at the ${Math.round(readMaxBytes / 1024)} KB Read limit; continue with offset ${next}.</system-reminder>`);
    }
    return { content: out.join('\n') };
  },
};
