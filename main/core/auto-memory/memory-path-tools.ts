import path from 'node:path';
import type { Tool, ToolContext, ToolOutput } from '../tools/index.js';
import { checkMemoryWrite } from './write-sandbox.js';

const WRITE_TOOLS = new Set(['Write', 'Edit', 'Delete']);

/** The deepest memory folder that holds `file` as written (no link followed), or null. */
function folderAsWritten(file: string, ctx: ToolContext, memoryDirs: readonly string[]): string | null {
  const absolute = path.resolve(ctx.scope.project, file);
  const inside = [...memoryDirs, ...ctx.scope.memory].filter((dir) => absolute.startsWith(path.resolve(dir) + path.sep));
  return inside.sort((a, b) => b.length - a.length)[0] ?? null;
}

/**
 * The write tools with the memory sandbox on the path as written (docs/memory.md#auto-memory): a Write, Edit or
 * Delete spelled inside a memory folder must land inside it after every link is followed. Without this,
 * `memory/proj-link/app.ts` (a link into the project) resolves to a project file and would go to the
 * user's permission prompt as an ordinary project write. Only `run` is wrapped: names, descriptions and
 * schemas (the prompt-cache key) are unchanged.
 */
export function sandboxMemoryPaths(tools: readonly Tool[], memoryDirs: readonly string[]): Tool[] {
  return tools.map((tool) => {
    if (!WRITE_TOOLS.has(tool.name)) return tool;
    const run = async (input: unknown, ctx: ToolContext): Promise<ToolOutput> => {
      const file = (input as { file_path?: unknown } | null)?.file_path;
      const folder = typeof file === 'string' ? folderAsWritten(file, ctx, memoryDirs) : null;
      if (typeof file === 'string' && folder !== null) {
        // Unfolded: the sandbox judges `..` segments as written.
        const check = await checkMemoryWrite(folder, path.isAbsolute(file) ? file : `${ctx.scope.project}${path.sep}${file}`, tool.name === 'Delete' ? 'existing' : 'write');
        if (!check.ok) return { content: `Refused: ${check.reason}. ${file} is written as a memory file, so it must stay in ${folder}.`, isError: true };
      }
      return tool.run(input, ctx);
    };
    return { ...tool, run };
  });
}
