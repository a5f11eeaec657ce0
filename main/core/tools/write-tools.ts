import { promises as fs, type Stats } from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/index.js';
import { isAllowanceFile } from '../secrets/index.js';
import { resolveInScope, type Resolved } from './path-scope.js';
import { EDITABLE_MAX_BYTES, specialKind, statOrNull } from './file-kind.js';
import { toolError, type MemoryWriteVerdict, type Tool, type ToolContext, type ToolOutput } from './tool-types.js';

type InScope = Extract<Resolved, { ok: true }>;

/** How a tool result says the user refused the change (the chat shows such a call as declined). */
export const DECLINED = 'The user declined this';

/**
 * Where a write lands. A write into a memory folder may not spell its path with `..` at all (docs/memory.md#auto-memory
 * item 5), even one that resolves back inside: the sandbox judges the path as written, not only where
 * it leads.
 */
async function resolveForWrite(input: string, ctx: ToolContext): Promise<Resolved> {
  const r = await resolveInScope(input, ctx.scope);
  if (r.ok && r.kind === 'memory' && input.split(/[\\/]/).includes('..')) {
    return { ok: false, message: `${input} uses "..": write memory files by their plain path inside the memory folder.` };
  }
  return r;
}

/** Memory writes pass the write hook; project writes ask the user with a diff (docs/architecture.md#the-agent). */
async function authorizeWrite(tool: string, target: InScope, before: string, after: string, ctx: ToolContext, created: boolean): Promise<MemoryWriteVerdict> {
  if (target.kind === 'readonly') return `${target.path} is read-only for the agent.`;
  // Only the user marks a finding as not a secret; no approval in a chat can hand that to the agent.
  if (isAllowanceFile(target.path)) return `${target.path} is the user's secret allowance list; the agent cannot change it.`;
  if (target.kind === 'memory') return ctx.beforeMemoryWrite ? ctx.beforeMemoryWrite(target.path, after) : null;
  if (!ctx.permissionGate) return 'The user has not allowed writes outside the memory folders in this session.';
  const diff = createTwoFilesPatch(target.path, target.path, before, after);
  // The texts too, so the dialog can show the change side by side, and a new file as its content.
  const answer = await ctx.permissionGate.requestPermission({ tool, path: target.path, diff, before, after, created });
  return answer === 'deny' ? `${DECLINED} ${tool} of ${target.path}. Do not retry it; ask the user what to do instead.` : null;
}

/** Why an existing path cannot be rewritten: not a regular file, or too large to hold (file-kind.ts). */
function notEditable(shown: string, st: Stats): string | null {
  const special = specialKind(st);
  if (special) return `${shown} is ${special}, not a regular file; only regular files can be written.`;
  if (st.size > EDITABLE_MAX_BYTES) {
    return `${shown} is ${Math.round(st.size / (1024 * 1024))} MB; files over ${EDITABLE_MAX_BYTES / (1024 * 1024)} MB cannot be edited or overwritten here.`;
  }
  return null;
}

async function commit(tool: string, target: InScope, before: string, after: string, ctx: ToolContext, created = false): Promise<ToolOutput | null> {
  const verdict = await authorizeWrite(tool, target, before, after, ctx, created);
  if (typeof verdict === 'string') return toolError(verdict);
  if (verdict && 'held' in verdict) return { content: verdict.held };
  const text = verdict ? verdict.write : after;
  await writeFileAtomic(target.path, text);
  await ctx.readState.record(target.path, text);
  return null;
}

const writeInput = z.object({
  file_path: z.string().describe('The absolute path to the file to write (must be absolute, not relative)'),
  content: z.string().describe('The content to write to the file'),
});

export const writeTool: Tool<z.infer<typeof writeInput>> = {
  name: 'Write',
  readOnly: false,
  inputSchema: writeInput,
  description:
    'Writes a file to the local filesystem.\n\nUsage:\n- This tool will overwrite the existing file if there is one at the provided path.\n- If this is an existing file, you MUST use the Read tool first to read the file\'s contents. This tool will fail if you did not read the file first.\n- ALWAYS prefer editing existing files. NEVER write new files unless explicitly required.',
  async run({ file_path, content }, ctx) {
    const r = await resolveForWrite(file_path, ctx);
    if (!r.ok) return toolError(r.message);
    const st = await statOrNull(r.path);
    if (st?.isDirectory()) return toolError(`${file_path} is a directory.`);
    const refused = st && notEditable(file_path, st);
    if (refused) return toolError(refused);
    const before = st ? await fs.readFile(r.path, 'utf8') : '';
    if (st) {
      const stale = await ctx.readState.check(r.path, before);
      if (stale) return toolError(stale);
    }
    const failed = await commit('Write', r, before, content, ctx, !st);
    return failed ?? { content: st ? `The file ${file_path} has been updated.` : `File created successfully at: ${file_path}` };
  },
};

/**
 * The text an Edit leaves in a file that holds `before`: `old_string` replaced once, or everywhere with
 * `replace_all`; null when the Edit would fail (not found, or found more than once without replace_all).
 */
export function editedText(before: string, edit: { old_string: string; new_string: string; replace_all?: boolean | undefined }): string | null {
  if (edit.old_string === '') return null;
  const count = before.split(edit.old_string).length - 1;
  if (count === 0 || (count > 1 && !edit.replace_all)) return null;
  return edit.replace_all ? before.split(edit.old_string).join(edit.new_string) : before.replace(edit.old_string, () => edit.new_string);
}

const editInput = z.object({
  file_path: z.string().describe('The absolute path to the file to modify'),
  old_string: z.string().describe('The text to replace'),
  new_string: z.string().describe('The text to replace it with (must be different from old_string)'),
  replace_all: z.boolean().optional().describe('Replace all occurences of old_string (default false)'),
});

export const editTool: Tool<z.infer<typeof editInput>> = {
  name: 'Edit',
  readOnly: false,
  inputSchema: editInput,
  description:
    'Performs exact string replacements in files.\n\nUsage:\n- You must use your `Read` tool at least once in the conversation before editing. This tool will error if you attempt an edit without reading the file.\n- The edit will FAIL if `old_string` is not unique in the file. Either provide a larger string with more surrounding context to make it unique or use `replace_all` to change every instance of `old_string`.',
  async run({ file_path, old_string, new_string, replace_all }, ctx) {
    const r = await resolveForWrite(file_path, ctx);
    if (!r.ok) return toolError(r.message);
    if (old_string === new_string) return toolError('No changes to make: old_string and new_string are exactly the same.');
    const st = await statOrNull(r.path);
    if (!st || st.isDirectory()) return toolError(`File does not exist: ${file_path}`);
    const refused = notEditable(file_path, st);
    if (refused) return toolError(refused);
    const before = await fs.readFile(r.path, 'utf8');
    const stale = await ctx.readState.check(r.path, before);
    if (stale) return toolError(stale);
    if (old_string === '') return toolError('old_string must not be empty for an existing file.');
    const count = before.split(old_string).length - 1;
    if (count === 0) return toolError(`String to replace not found in file.\nString: ${old_string}`);
    if (count > 1 && !replace_all) {
      return toolError(
        `Found ${count} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: ${old_string}`,
      );
    }
    const failed = await commit('Edit', r, before, editedText(before, { old_string, new_string, replace_all })!, ctx);
    return failed ?? { content: `The file ${file_path} has been updated.` };
  },
};

const deleteInput = z.object({ file_path: z.string().describe('The absolute path of the memory file to delete') });

export const deleteTool: Tool<z.infer<typeof deleteInput>> = {
  name: 'Delete',
  readOnly: false,
  inputSchema: deleteInput,
  description: 'Deletes a file inside the memory folders (memory/ and memory/team/). Files anywhere else cannot be deleted.',
  async run({ file_path }, ctx) {
    const r = await resolveForWrite(file_path, ctx);
    if (!r.ok) return toolError(r.message);
    if (r.kind !== 'memory') return toolError(`Delete only works inside the memory folders; ${file_path} is not in one.`);
    const st = await statOrNull(r.path);
    if (!st || !st.isFile()) return toolError(`File does not exist: ${file_path}`);
    const verdict = ctx.beforeMemoryWrite ? await ctx.beforeMemoryWrite(r.path, null) : null;
    if (typeof verdict === 'string') return toolError(verdict);
    if (verdict && 'held' in verdict) return { content: verdict.held };
    await fs.unlink(r.path);
    ctx.readState.forget(r.path);
    return { content: `Deleted ${file_path}.` };
  },
};
