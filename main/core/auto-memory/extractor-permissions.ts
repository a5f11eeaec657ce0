import { promises as fs } from 'node:fs';
import path from 'node:path';
import { editedText } from '../tools/index.js';
import type { MemoryWriteGuard, MemoryWriteRequest } from './write-guard.js';

/** A permission decision for one tool call, in the shape the agent loop's `canUseTool` returns. */
export type ToolDecision = { behavior: 'allow'; updatedInput?: Record<string, unknown> } | { behavior: 'deny'; message: string };

/** The fork's permission check: the tool list stays the parent's (cache), permissions restrict it (docs/architecture.md). */
export type CanUseTool = (toolName: string, input: Record<string, unknown>) => Promise<ToolDecision>;

const READ_TOOLS = new Set(['Read', 'Grep', 'Glob']);
const WRITE_TOOLS = new Set(['Write', 'Edit', 'Delete']);

/** The file a Write/Edit/Delete targets. */
export function writeTargetOf(toolName: string, input: Record<string, unknown>): string | null {
  if (!WRITE_TOOLS.has(toolName)) return null;
  const p = input.file_path;
  return typeof p === 'string' ? p : null;
}

/**
 * The whole text a write leaves on disk, which is what the secret scan must see: for an Edit, the file
 * with the replacement made (`password: <TBD>` → the real password has no finding in `new_string` alone).
 * An Edit that cannot apply is scanned on its replacement: the tool refuses it anyway.
 */
function writtenText(toolName: string, input: Record<string, unknown>): MemoryWriteRequest['content'] {
  if (toolName === 'Write' && typeof input.content === 'string') return input.content;
  if (toolName !== 'Edit' || typeof input.new_string !== 'string') return undefined;
  const edit = { old_string: String(input.old_string ?? ''), new_string: input.new_string, replace_all: input.replace_all === true };
  return async (realPath) => {
    const before = await fs.readFile(realPath, 'utf8').catch(() => null);
    return (before === null ? null : editedText(before, edit)) ?? edit.new_string;
  };
}

const inside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * docs/memory.md#auto-memory extractor permissions: Read/Grep/Glob anywhere in the project (or the memory folder);
 * Write/Edit/Delete only through the sandbox and the secret scan, the path rewritten to its real path;
 * everything else denied. (Strata has no shell tool, so there are no read-only shell commands to allow.)
 */
export function createExtractorCanUseTool(options: { projectDir: string; guard: MemoryWriteGuard }): CanUseTool {
  const readable = [options.projectDir, ...options.guard.memoryDirs].map((d) => path.resolve(d));
  return async (toolName, input) => {
    if (READ_TOOLS.has(toolName)) {
      const p = (toolName === 'Read' ? input.file_path : input.path) as unknown;
      if (p === undefined) return { behavior: 'allow' };
      if (typeof p === 'string' && !p.includes('\0') && readable.some((d) => inside(d, path.resolve(options.projectDir, p)))) {
        return { behavior: 'allow' };
      }
      return { behavior: 'deny', message: `${toolName} is allowed only inside the project and its memory folder` };
    }
    const target = writeTargetOf(toolName, input);
    if (WRITE_TOOLS.has(toolName)) {
      if (target === null) return { behavior: 'deny', message: `${toolName} needs a file_path` };
      const check = await options.guard.check({ path: target, content: writtenText(toolName, input) });
      if (!check.ok) return { behavior: 'deny', message: `${toolName} denied: ${check.reason}` };
      return { behavior: 'allow', updatedInput: { ...input, file_path: check.realPath } };
    }
    return { behavior: 'deny', message: `${toolName} is not available to the memory extractor` };
  };
}

/** The agent loop's decision shape (`main/core/agent/fork-types.ts` CanUseTool), structurally. */
export type LoopToolDecision = { allow: true } | { allow: false; message: string };

/**
 * Adapts this module's check to the agent loop's `canUseTool`. The loop has no input rewrite, so an
 * allowed write goes to the path the model gave, which the sandbox resolved inside the folder.
 */
export function toLoopCanUseTool(can: CanUseTool): (toolName: string, input: unknown) => Promise<LoopToolDecision> {
  return async (toolName, input) => {
    const record = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    const decision = await can(toolName, record);
    return decision.behavior === 'allow' ? { allow: true } : { allow: false, message: decision.message };
  };
}
