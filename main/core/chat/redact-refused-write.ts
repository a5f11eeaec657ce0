import { promises as fs } from 'node:fs';
import { redactFindings, redactValues, secretValues, type Finding } from '../secrets/index.js';
import { editedText, MEMORY_TOOL_NAME, memoryToolWrite, resolveInScope, type PathScope } from '../tools/index.js';

/** The tools whose `file_path` may name a memory file; the memory tool's paths always do. */
const pathTools = new Set(['Write', 'Edit']);

/**
 * The whole text the call would leave in its memory file — what the write guard scans — or null when
 * the call names no memory file (or could not apply). Worked out against the file as it is now: a
 * refused call left it unchanged.
 */
async function resultingText(name: string, input: Record<string, unknown>, scope: PathScope): Promise<string | null | undefined> {
  if (name === MEMORY_TOOL_NAME) return (await memoryToolWrite(input, scope))?.text ?? null;
  if (!pathTools.has(name) || typeof input.file_path !== 'string') return undefined;
  const target = await resolveInScope(input.file_path, scope);
  if (!target.ok || target.kind !== 'memory') return undefined;
  if (name === 'Write') return typeof input.content === 'string' ? input.content : null;
  if (typeof input.new_string !== 'string') return null;
  const before = await fs.readFile(target.path, 'utf8').catch(() => null);
  return before === null ? null : editedText(before, { old_string: String(input.old_string ?? ''), new_string: input.new_string, replace_all: input.replace_all === true });
}

/**
 * The input to record for a tool call that writes into a memory folder with a secret in it, so the
 * transcript, the chat view and later requests keep the call and its refusal but never the value
 * (docs/security.md). Two ways a value is found: a field's own scan, and the scan of the whole text the
 * call would leave in the file — a value whose key name is already there (`password: <TBD>` edited to
 * the real password) is a secret only in that text, and is then blanked wherever it appears in the input.
 * The tool itself still runs on the model's input and is refused. Null when nothing is blanked.
 *
 * `scan` must be the guard's own (the same rules and the user's "Not a secret" list) asked for spans:
 * what the guard lets through stays as written.
 */
export async function redactRefusedMemoryWrite(
  call: { name: string; input: unknown },
  options: { scope: PathScope; scan: (text: string) => Finding[] },
): Promise<unknown> {
  if (typeof call.input !== 'object' || call.input === null) return null;
  const input = call.input as Record<string, unknown>;
  const result = await resultingText(call.name, input, options.scope);
  if (result === undefined) return null;
  const refused = result === null ? [] : secretValues(result, options.scan(result));
  let changed = false;
  const redacted = Object.fromEntries(
    Object.entries(input).map(([key, value]) => {
      if (typeof value !== 'string') return [key, value];
      const findings = options.scan(value);
      const out = redactValues(findings.length ? redactFindings(value, findings) : value, refused);
      if (out === value) return [key, value];
      changed = true;
      return [key, out];
    }),
  );
  return changed ? redacted : null;
}
