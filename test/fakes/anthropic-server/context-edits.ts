import { blockTokens } from './prompt-cache.js';
import type { WireBlock, WireRequest } from './validate.js';

/**
 * The API's context management, as its reference describes it, for the fake: the request's
 * `context_management.edits` are checked as strictly as the real API checks them, and
 * `clear_tool_uses_20250919` is carried out — past the trigger, the oldest tool results (all but the
 * newest `keep`, never those of `exclude_tools`) are replaced by a placeholder, so the usage the fake
 * reports (and a client's context meter) drops as it would on the real API.
 */
export const BETA_CONTEXT_MANAGEMENT = 'context-management-2025-06-27';
export const BETA_COMPACTION = 'compact-2026-01-12';
export const CLEARED_PLACEHOLDER = '[cleared to save context]';

const CLEAR_KEYS = new Set(['type', 'trigger', 'keep', 'clear_at_least', 'clear_tool_inputs', 'exclude_tools']);
const COMPACT_KEYS = new Set(['type', 'trigger', 'instructions', 'pause_after_compaction']);
const THINKING_KEYS = new Set(['type', 'keep']);

export interface AppliedEdit {
  type: 'clear_tool_uses_20250919';
  cleared_tool_uses: number;
  cleared_input_tokens: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkThreshold(v: unknown, where: string, types: string[]): string | null {
  if (v === undefined || v === null) return null;
  if (!isObject(v) || !types.includes(String(v.type)) || typeof v.value !== 'number' || !Number.isInteger(v.value) || v.value < 1) {
    return `context_management.${where}: expected {type: ${types.map((t) => `"${t}"`).join(' | ')}, value: positive integer}`;
  }
  return null;
}

/** The 400 message for a malformed `context_management` or a beta feature used without its header. */
export function validateContextManagement(req: WireRequest, betas: readonly string[]): string | null {
  const cm = (req as { context_management?: unknown }).context_management;
  for (const block of req.messages?.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)) ?? []) {
    if (block.type === 'compaction' && !betas.includes(BETA_COMPACTION)) return `messages: compaction blocks require the "${BETA_COMPACTION}" beta`;
  }
  for (const m of req.messages ?? []) {
    if (typeof m.content === 'string') continue;
    const i = m.content.findIndex((b) => b.type === 'compaction');
    if (i > 0 || (i === 0 && m.role !== 'assistant')) return 'messages: a compaction block must be the first block of an assistant message';
  }
  if (cm === undefined) return null;
  if (!isObject(cm) || !Array.isArray(cm.edits)) return 'context_management.edits: Field required';
  for (const [i, edit] of cm.edits.entries()) {
    if (!isObject(edit)) return `context_management.edits.${i}: expected an object`;
    if (edit.type === 'clear_tool_uses_20250919') {
      if (!betas.includes(BETA_CONTEXT_MANAGEMENT)) return `context_management: requires the "${BETA_CONTEXT_MANAGEMENT}" beta`;
      const extra = Object.keys(edit).find((k) => !CLEAR_KEYS.has(k));
      if (extra) return `context_management.edits.${i}.${extra}: Extra inputs are not permitted`;
      const bad =
        checkThreshold(edit.trigger, `edits.${i}.trigger`, ['input_tokens', 'tool_uses']) ??
        checkThreshold(edit.keep, `edits.${i}.keep`, ['tool_uses']) ??
        checkThreshold(edit.clear_at_least, `edits.${i}.clear_at_least`, ['input_tokens']);
      if (bad) return bad;
      if (edit.exclude_tools !== undefined && edit.exclude_tools !== null && (!Array.isArray(edit.exclude_tools) || edit.exclude_tools.some((t) => typeof t !== 'string'))) {
        return `context_management.edits.${i}.exclude_tools: expected a list of tool names`;
      }
    } else if (edit.type === 'clear_thinking_20251015') {
      // Claude Code sends this one: keep the thinking of the last N turns, or 'all'.
      if (!betas.includes(BETA_CONTEXT_MANAGEMENT)) return `context_management: requires the "${BETA_CONTEXT_MANAGEMENT}" beta`;
      const extra = Object.keys(edit).find((k) => !THINKING_KEYS.has(k));
      if (extra) return `context_management.edits.${i}.${extra}: Extra inputs are not permitted`;
      if (edit.keep !== undefined && edit.keep !== 'all') {
        const bad = checkThreshold(edit.keep, `edits.${i}.keep`, ['thinking_turns']);
        if (bad) return bad;
      }
    } else if (edit.type === 'compact_20260112') {
      if (!betas.includes(BETA_COMPACTION)) return `context_management: compact_20260112 requires the "${BETA_COMPACTION}" beta`;
      const extra = Object.keys(edit).find((k) => !COMPACT_KEYS.has(k));
      if (extra) return `context_management.edits.${i}.${extra}: Extra inputs are not permitted`;
      const bad = checkThreshold(edit.trigger, `edits.${i}.trigger`, ['input_tokens']);
      if (bad) return bad;
      if (isObject(edit.trigger) && Number(edit.trigger.value) < 50_000) return `context_management.edits.${i}.trigger.value: must be at least 50000`;
      if (edit.instructions !== undefined && edit.instructions !== null && typeof edit.instructions !== 'string') return `context_management.edits.${i}.instructions: expected a string`;
      if (edit.pause_after_compaction !== undefined && typeof edit.pause_after_compaction !== 'boolean') return `context_management.edits.${i}.pause_after_compaction: expected a boolean`;
    } else {
      return `context_management.edits.${i}.type: unknown strategy "${String(edit.type)}"`;
    }
  }
  return null;
}

const requestTokens = (req: WireRequest): number => {
  const system = typeof req.system === 'string' ? [{ type: 'text', text: req.system }] : (req.system ?? []);
  const blocks = [...(req.tools ?? []), ...system, ...(req.messages ?? []).flatMap((m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content))];
  return blocks.reduce((n, b) => n + blockTokens(b), 0);
};

/** Carries out `clear_tool_uses_20250919` on a copy of the request; the request itself is left as sent. */
export function applyContextEdits(req: WireRequest): { request: WireRequest; applied: AppliedEdit[] } {
  const edits = ((req as { context_management?: { edits?: Record<string, unknown>[] } }).context_management?.edits ?? []).filter((e) => e.type === 'clear_tool_uses_20250919');
  const edit = edits[0];
  if (!edit) return { request: req, applied: [] };
  const trigger = (edit.trigger as { type: string; value: number } | undefined) ?? { type: 'input_tokens', value: 100_000 };
  const keep = (edit.keep as { value: number } | undefined)?.value ?? 3;
  const atLeast = (edit.clear_at_least as { value: number } | undefined)?.value ?? 0;
  const exclude = new Set((edit.exclude_tools as string[] | undefined) ?? []);
  const copy = structuredClone(req);
  const toolNames = new Map<string, string>();
  const results: WireBlock[] = [];
  for (const m of copy.messages ?? []) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') toolNames.set(String(b.id), String(b.name));
      if (b.type === 'tool_result') results.push(b);
    }
  }
  const over = trigger.type === 'tool_uses' ? results.length > trigger.value : requestTokens(req) > trigger.value;
  if (!over) return { request: req, applied: [] };
  const clearable = results.slice(0, Math.max(0, results.length - keep)).filter((b) => !exclude.has(toolNames.get(String(b.tool_use_id)) ?? '') && b.content !== CLEARED_PLACEHOLDER);
  const before = clearable.reduce((n, b) => n + blockTokens(b), 0);
  for (const b of clearable) b.content = CLEARED_PLACEHOLDER;
  const cleared = before - clearable.reduce((n, b) => n + blockTokens(b), 0);
  if (clearable.length === 0 || cleared < atLeast) return { request: req, applied: [] };
  return { request: copy, applied: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: clearable.length, cleared_input_tokens: cleared }] };
}
