import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { resolveInScope, type PathScope } from './path-scope.js';
import { statOrNull } from './file-kind.js';
import { editedText } from './write-tools.js';
import { viewMemoryFolder } from './memory-folder-view.js';
import { toolError, type Tool, type ToolContext, type ToolOutput } from './tool-types.js';

/**
 * The Messages API's memory tool (`memory_20250818`), carried out on the project's memory folder: the
 * model's `/memories` is the folder that holds `MEMORY.md`, and `/memories/team/` the team's. Every
 * change is made by the agent's own Write, Edit and Delete (the sandboxed ones the caller passes in), so
 * it passes the same path sandbox, secret scan, memory card with Undo, review inbox and history as a
 * memory written the Claude Code way. Answers use the wording of the SDK's reference implementation,
 * which is what the models are trained on.
 */
export const MEMORY_TOOL_NAME = 'memory';
const VIRTUAL_ROOT = '/memories';

const input = z.discriminatedUnion('command', [
  z.object({ command: z.literal('view'), path: z.string(), view_range: z.array(z.number().int()).length(2).optional() }),
  z.object({ command: z.literal('create'), path: z.string(), file_text: z.string() }),
  z.object({ command: z.literal('str_replace'), path: z.string(), old_str: z.string(), new_str: z.string() }),
  z.object({ command: z.literal('insert'), path: z.string(), insert_line: z.number().int(), insert_text: z.string() }),
  z.object({ command: z.literal('delete'), path: z.string() }),
  z.object({ command: z.literal('rename'), old_path: z.string(), new_path: z.string() }),
]);
type MemoryCommand = z.infer<typeof input>;

/** The write tools the memory tool delegates to: the agent's own, with their memory sandbox. */
export interface MemoryWriteTools {
  write: Tool;
  edit: Tool;
  delete: Tool;
}

type Mapped = { ok: true; abs: string; virtual: string } | { ok: false; message: string };

/**
 * `/memories/a/b.md` → `<memory folder>/a/b.md`. The path is judged as written (no `.` or `..`
 * segment, no backslash or NUL) and then where it really leads (a link out of the folder is refused).
 */
async function mapPath(virtual: string, scope: PathScope): Promise<Mapped> {
  const root = scope.memory[0];
  if (!root) return { ok: false, message: 'Memory is turned off for this project.' };
  if (virtual !== VIRTUAL_ROOT && !virtual.startsWith(`${VIRTUAL_ROOT}/`)) return { ok: false, message: `Path must start with /memories, got: ${virtual}` };
  const rel = virtual.slice(VIRTUAL_ROOT.length).replace(/^\/+/, '').replace(/\/+$/, '');
  const segments = rel === '' ? [] : rel.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..') || /[\\\0]/.test(rel)) return { ok: false, message: `Path ${virtual} would escape /memories directory` };
  const abs = path.join(root, ...segments);
  const where = await resolveInScope(abs, scope);
  if (!where.ok || where.kind !== 'memory') return { ok: false, message: `Path ${virtual} would escape /memories directory via symlink` };
  return { ok: true, abs: where.path, virtual: segments.length ? `${VIRTUAL_ROOT}/${segments.join('/')}` : VIRTUAL_ROOT };
}

/** `text` put before line `line` (0 = at the top), as the reference implementation inserts; null when the line is out of range. */
function insertedText(before: string, line: number, text: string): string | null {
  const lines = before.split('\n');
  if (line < 0 || line > lines.length) return null;
  lines.splice(line, 0, text.replace(/\n$/, ''));
  return lines.join('\n');
}

/**
 * The file a create, str_replace or insert call would write and the whole text it would hold, worked out
 * without carrying the call out (null for any other call, or one that would fail): what the chat's record
 * of a refused write is redacted by (docs/security.md).
 */
export async function memoryToolWrite(call: unknown, scope: PathScope): Promise<{ path: string; text: string } | null> {
  const parsed = input.safeParse(call);
  if (!parsed.success) return null;
  const c = parsed.data;
  if (c.command !== 'create' && c.command !== 'str_replace' && c.command !== 'insert') return null;
  const m = await mapPath(c.path, scope);
  if (!m.ok) return null;
  if (c.command === 'create') return { path: m.abs, text: c.file_text };
  const before = await fs.readFile(m.abs, 'utf8').catch(() => null);
  if (before === null) return null;
  const text = c.command === 'str_replace' ? editedText(before, { old_string: c.old_str, new_string: c.new_str }) : insertedText(before, c.insert_line, c.insert_text);
  return text === null ? null : { path: m.abs, text };
}

const numbered = (lines: string[], first: number) => lines.map((line, i) => `${String(i + first).padStart(6, ' ')}\t${line}`).join('\n');

/** The files under a folder, deepest first, so a folder is emptied before it is removed. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(child)));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

export function memoryTool(tools: MemoryWriteTools): Tool<MemoryCommand> {
  /** A delegated tool's answer, with the real folder spelled as the model's `/memories`. */
  const delegate = async (tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolOutput> => {
    const out = await tool.run(args, ctx);
    const root = ctx.scope.memory[0]!;
    return { ...out, content: out.content.split(root).join(VIRTUAL_ROOT) };
  };
  const readText = async (abs: string, virtual: string, ctx: ToolContext): Promise<string | ToolOutput> => {
    const st = await statOrNull(abs);
    if (!st) return toolError(`The path ${virtual} does not exist. Please provide a valid path.`);
    if (!st.isFile()) return toolError(`The path ${virtual} is not a file.`);
    if (st.size > ctx.limits.readMaxBytes) return toolError(`File ${virtual} is too large (${st.size} bytes); memory files stay under ${ctx.limits.readMaxBytes} bytes.`);
    const text = await fs.readFile(abs, 'utf8');
    // The model has now seen this text: an Edit or Write of it passes the read-before-write rule.
    await ctx.readState.record(abs, text);
    return text;
  };
  /** Writes `after` over a file whose current text the caller just read. */
  const replace = (abs: string, after: string, ctx: ToolContext) => delegate(tools.write, { file_path: abs, content: after }, ctx);

  const commands = {
    async view(c: Extract<MemoryCommand, { command: 'view' }>, ctx: ToolContext): Promise<ToolOutput> {
      const m = await mapPath(c.path, ctx.scope);
      if (!m.ok) return toolError(m.message);
      const st = await statOrNull(m.abs);
      if (!st) return toolError(`The path ${c.path} does not exist. Please provide a valid path.`);
      if (st.isDirectory()) return { content: await viewMemoryFolder(m.abs, m.virtual, ctx, c.view_range) };
      const text = await readText(m.abs, c.path, ctx);
      if (typeof text !== 'string') return text;
      const lines = text.split('\n');
      const [from = 1, to = lines.length] = c.view_range ?? [];
      const start = Math.max(1, from) - 1;
      const end = to === -1 ? lines.length : to;
      return { content: `Here's the content of ${m.virtual} with line numbers:\n${numbered(lines.slice(start, end), start + 1)}` };
    },
    async create(c: Extract<MemoryCommand, { command: 'create' }>, ctx: ToolContext): Promise<ToolOutput> {
      const m = await mapPath(c.path, ctx.scope);
      if (!m.ok) return toolError(m.message);
      if (m.virtual === VIRTUAL_ROOT) return toolError('Cannot create the /memories directory itself');
      if (await statOrNull(m.abs)) return toolError(`File ${m.virtual} already exists`);
      const out = await delegate(tools.write, { file_path: m.abs, content: c.file_text }, ctx);
      return out.isError || !out.content.startsWith('File created') ? out : { content: `File created successfully at: ${m.virtual}` };
    },
    async str_replace(c: Extract<MemoryCommand, { command: 'str_replace' }>, ctx: ToolContext): Promise<ToolOutput> {
      const m = await mapPath(c.path, ctx.scope);
      if (!m.ok) return toolError(m.message);
      const before = await readText(m.abs, c.path, ctx);
      if (typeof before !== 'string') return before;
      const count = c.old_str === '' ? 0 : before.split(c.old_str).length - 1;
      if (count === 0) return toolError(`No replacement was performed, old_str \`${c.old_str}\` did not appear verbatim in ${m.virtual}.`);
      if (count > 1) {
        const lines = before.split('\n').flatMap((line, i) => (line.includes(c.old_str) ? [i + 1] : []));
        return toolError(`No replacement was performed. Multiple occurrences of old_str \`${c.old_str}\` in lines: ${lines.join(', ')}. Please ensure it is unique`);
      }
      const out = await delegate(tools.edit, { file_path: m.abs, old_string: c.old_str, new_string: c.new_str }, ctx);
      if (out.isError || !out.content.includes('has been updated')) return out;
      const after = before.replace(c.old_str, () => c.new_str).split('\n');
      const changed = before.slice(0, before.indexOf(c.old_str)).split('\n').length - 1;
      const from = Math.max(0, changed - 2);
      return { content: `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${numbered(after.slice(from, changed + 3), from + 1)}` };
    },
    async insert(c: Extract<MemoryCommand, { command: 'insert' }>, ctx: ToolContext): Promise<ToolOutput> {
      const m = await mapPath(c.path, ctx.scope);
      if (!m.ok) return toolError(m.message);
      const before = await readText(m.abs, c.path, ctx);
      if (typeof before !== 'string') return before;
      const after = insertedText(before, c.insert_line, c.insert_text);
      if (after === null) {
        return toolError(`Invalid \`insert_line\` parameter: ${c.insert_line}. It should be within the range of lines of the file: [0, ${before.split('\n').length}]`);
      }
      const out = await replace(m.abs, after, ctx);
      return out.isError || !out.content.includes('has been updated') ? out : { content: `The file ${m.virtual} has been edited.` };
    },
    async delete(c: Extract<MemoryCommand, { command: 'delete' }>, ctx: ToolContext): Promise<ToolOutput> {
      const m = await mapPath(c.path, ctx.scope);
      if (!m.ok) return toolError(m.message);
      if (m.virtual === VIRTUAL_ROOT) return toolError('Cannot delete the /memories directory itself');
      const st = await statOrNull(m.abs);
      if (!st) return toolError(`The path ${m.virtual} does not exist`);
      // A folder goes file by file, so each deletion has its card, its Undo and its history.
      for (const file of st.isDirectory() ? await filesUnder(m.abs) : [m.abs]) {
        const out = await delegate(tools.delete, { file_path: file }, ctx);
        if (out.isError || !out.content.startsWith('Deleted')) return out;
      }
      if (st.isDirectory()) await fs.rm(m.abs, { recursive: true, force: true });
      return { content: `Successfully deleted ${m.virtual}` };
    },
    async rename(c: Extract<MemoryCommand, { command: 'rename' }>, ctx: ToolContext): Promise<ToolOutput> {
      const from = await mapPath(c.old_path, ctx.scope);
      if (!from.ok) return toolError(from.message);
      const to = await mapPath(c.new_path, ctx.scope);
      if (!to.ok) return toolError(to.message);
      if (from.virtual === VIRTUAL_ROOT) return toolError('Cannot rename the /memories directory itself');
      const st = await statOrNull(from.abs);
      if (!st) return toolError(`The path ${from.virtual} does not exist`);
      if (await statOrNull(to.abs)) return toolError(`The destination ${to.virtual} already exists`);
      if (to.abs.startsWith(from.abs + path.sep)) return toolError(`Cannot move ${from.virtual} into itself`);
      // Written at the new path, then deleted at the old one: a refused or held write leaves the old file in place.
      for (const file of st.isDirectory() ? await filesUnder(from.abs) : [from.abs]) {
        const target = path.join(to.abs, path.relative(from.abs, file));
        const text = await readText(file, file, ctx);
        if (typeof text !== 'string') return text;
        const wrote = await delegate(tools.write, { file_path: target, content: text }, ctx);
        if (wrote.isError || !wrote.content.startsWith('File created')) return wrote;
        const removed = await delegate(tools.delete, { file_path: file }, ctx);
        if (removed.isError) return removed;
        await ctx.afterMemoryMove?.(file, target);
      }
      if (st.isDirectory()) await fs.rm(from.abs, { recursive: true, force: true });
      return { content: `Successfully renamed ${from.virtual} to ${to.virtual}` };
    },
  };

  return {
    name: MEMORY_TOOL_NAME,
    description: 'The API-defined memory tool: files under /memories.',
    api: { type: 'memory_20250818', name: MEMORY_TOOL_NAME },
    inputSchema: input,
    readOnly: false,
    run(c, ctx) {
      return (commands[c.command] as (c: MemoryCommand, ctx: ToolContext) => Promise<ToolOutput>)(c, ctx);
    },
  };
}
