import { redactFindings, type Finding } from '../secrets/index.js';
import { MEMORY_TOOL_NAME, resolveInScope, type PathScope } from '../tools/index.js';

/** The tools whose `file_path` may name a memory file; the memory tool's paths always do. */
const pathTools = new Set(['Write', 'Edit']);

async function targetsMemory(name: string, input: Record<string, unknown>, scope: PathScope): Promise<boolean> {
  if (name === MEMORY_TOOL_NAME) return true;
  if (!pathTools.has(name) || typeof input.file_path !== 'string') return false;
  const target = await resolveInScope(input.file_path, scope);
  return target.ok && target.kind === 'memory';
}

/**
 * The input to record for a tool call that writes into a memory folder with a secret in it: every value
 * the write guard's scan finds is replaced by a marker, so the transcript, the chat view and later
 * requests keep the call and its refusal but never the value (docs/security.md). The tool itself still
 * runs on the model's input and is refused. Null when nothing is blanked.
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
  if (!(await targetsMemory(call.name, input, options.scope))) return null;
  let changed = false;
  const redacted = Object.fromEntries(
    Object.entries(input).map(([key, value]) => {
      if (typeof value !== 'string') return [key, value];
      const findings = options.scan(value);
      if (findings.length === 0) return [key, value];
      changed = true;
      return [key, redactFindings(value, findings)];
    }),
  );
  return changed ? redacted : null;
}
