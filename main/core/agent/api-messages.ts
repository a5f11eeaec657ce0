import type Anthropic from '@anthropic-ai/sdk';
import { newestReminder, reminderTextOf } from '../transcripts/index.js';
import { isCompactBoundary, isMessageRecord, reachesModel, type TranscriptRecord } from '../transcripts/index.js';

/**
 * Transcript records → the API's `messages` (docs/architecture.md#the-agent). Only messages after the last compact
 * boundary count; records sharing one API `message.id` are one response; same-role runs are merged
 * (strict fake, docs/architecture.md#how-it-is-tested); empty text goes; a tool_use left without a result (Stop mid-tool,
 * a crash) gets an "interrupted" result so the next request is valid. The newest context reminder
 * (wherever it was stored: at the start, on resume, after a compaction) leads the first user message,
 * as Claude Code 2.1.88 sends its own; older reminders are not sent.
 */
type Block = Anthropic.ContentBlockParam;
type Msg = { role: 'user' | 'assistant'; content: Block[] };

export const INTERRUPTED_RESULT = 'The user interrupted this tool call (Stop); it did not complete.';

function usable(b: Block): boolean {
  if (b.type === 'text') return b.text.trim() !== '';
  if (b.type === 'thinking') return Boolean(b.signature);
  return true;
}

const blocksOf = (content: string | Block[]): Block[] =>
  (typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content).filter(usable);

const onlyResults = (m: Msg) => m.role === 'user' && m.content.every((b) => b.type === 'tool_result');

/** Merges consecutive same-role messages; tool_result blocks go first in a user message. */
export function mergeSameRole(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const out: Msg[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const content = blocksOf(m.content as string | Block[]);
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content: [...content] });
  }
  for (const m of out) {
    if (m.role === 'user') m.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }
  return out.filter((m) => m.content.length > 0);
}

/** Adds "interrupted" results for unanswered tool_use and drops results with no matching tool_use. */
function repairToolPairs(messages: Msg[]): Msg[] {
  const out: Msg[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'user') {
      const prev = out.at(-1);
      const ids = new Set(prev?.role === 'assistant' ? prev.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : []);
      const content = m.content.filter((b) => b.type !== 'tool_result' || ids.has(b.tool_use_id));
      if (content.length > 0) out.push({ role: 'user', content });
      continue;
    }
    out.push(m);
    const uses = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    if (uses.length === 0) continue;
    const next = messages[i + 1];
    const answered = new Set(next?.role === 'user' ? next.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : []);
    const missing: Block[] = uses
      .filter((id) => !answered.has(id))
      .map((id) => ({ type: 'tool_result', tool_use_id: id, content: INTERRUPTED_RESULT, is_error: true }));
    if (missing.length === 0) continue;
    if (next?.role === 'user') next.content.unshift(...missing);
    else out.push({ role: 'user', content: missing });
  }
  return out;
}

export function toApiMessages(records: TranscriptRecord[]): Anthropic.MessageParam[] {
  let start = 0;
  records.forEach((r, i) => {
    if (isCompactBoundary(r)) start = i + 1;
  });
  const out: Msg[] = [];
  const reminder = newestReminder(records);
  if (reminder !== null) out.push({ role: 'user', content: [{ type: 'text', text: reminder }] });
  for (const r of records.slice(start)) {
    if (!isMessageRecord(r) || !reachesModel(r) || reminderTextOf(r) !== null) continue;
    const content = blocksOf(r.message.content);
    if (content.length === 0) continue;
    const role = r.message.role;
    const id = r.message.id;
    if (role === 'assistant' && id) {
      // A sibling block of an earlier response (Claude Code writes one record per block, with the
      // tool results of earlier blocks sometimes in between): join that response.
      let j = out.length - 1;
      while (j >= 0 && onlyResults(out[j]!)) j--;
      const target = out[j];
      if (target && target.role === 'assistant' && (target as Msg & { id?: string }).id === id) {
        target.content.push(...content);
        continue;
      }
    }
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else out.push(Object.assign({ role, content: [...content] }, id ? { id } : {}));
  }
  const merged = mergeSameRole(repairToolPairs(mergeSameRole(out) as Msg[]));
  return merged.map((m) => ({ role: m.role, content: m.content }) as Anthropic.MessageParam);
}
