import path from 'node:path';
import { conversationChain } from '../transcripts/index.js';
import { DECLINED } from '../tools/index.js';
import { MEMORY_PAUSED } from './system-prompt.js';
import type { ChatItem } from '../../../common/domain/chat.js';
import {
  isCompactBoundary,
  isMessageRecord,
  type ContentBlock,
  type MessageRecord,
  type TranscriptRecord,
} from '../transcripts/index.js';

/**
 * A chat item that is not a message (a memory card, the memories recalled for a question, "Stopped",
 * the error that ended a turn), kept in the transcript as a record of Strata's own type. Claude Code's
 * transcript reader skips record types it does not know, and the record has no `uuid`, so it never
 * joins the message chain that the model sees or that Claude Code resumes. `anchorUuid` is the newest
 * chain record when it was written: a card of a branch the user edited away goes with its branch.
 * A later record with the same item id is the item's new state (an undone memory, an accepted proposal).
 */
export interface ItemRecord {
  type: 'strata-item';
  timestamp: string;
  item: ChatItem;
  anchorUuid?: string;
}

export const isItemRecord = (r: TranscriptRecord): r is TranscriptRecord & ItemRecord =>
  r.type === 'strata-item' && typeof (r as Partial<ItemRecord>).item === 'object' && (r as Partial<ItemRecord>).item !== null;

export const itemRecord = (item: ChatItem, now: number, anchorUuid?: string): ItemRecord & TranscriptRecord => ({
  type: 'strata-item',
  timestamp: new Date(now).toISOString(),
  item,
  ...(anchorUuid ? { anchorUuid } : {}),
});

/**
 * Everything the conversation showed, in the order it showed it: the message chain of each compaction
 * segment (the model only sees the last one), every compaction divider, and the item records of the
 * shown branch. Records kept word for word across a compaction show once, where they first appeared.
 */
export function displayRecords(file: readonly TranscriptRecord[]): TranscriptRecord[] {
  const shown = new Set(displayChain(file));
  const onChain = new Set([...shown].map((r) => r.uuid).filter((u): u is string => typeof u === 'string'));
  return file.filter((r) => shown.has(r) || (isItemRecord(r) && (r.anchorUuid === undefined || onChain.has(r.anchorUuid))));
}

function displayChain(file: readonly TranscriptRecord[]): TranscriptRecord[] {
  const chain = conversationChain(file).records;
  const first = chain[0];
  if (!first || !isCompactBoundary(first)) return chain;
  const earlier = displayChain(file.slice(0, file.indexOf(first)));
  const seen = new Set(earlier.map((r) => r.uuid));
  return [...earlier, ...chain.filter((r) => !seen.has(r.uuid))];
}

/** A finished call's state: a refusal by the user reads as declined, a memory write while memory is paused as not saved — neither failed. */
export const toolStatus = (isError: boolean, result: string): 'done' | 'error' | 'denied' | 'paused' =>
  !isError ? 'done' : result.startsWith(DECLINED) ? 'denied' : result.startsWith(MEMORY_PAUSED) ? 'paused' : 'error';

/** A one-line summary of a tool call's input for its collapsed card. */
export function summarizeToolInput(name: string, input: unknown, projectDir: string): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const rel = (p: unknown) => {
    if (typeof p !== 'string') return '';
    const r = path.relative(projectDir, p);
    if (r && !r.startsWith('..') && !path.isAbsolute(r)) return r;
    // Outside the project (the vault's memory folders): the folder and the file say enough.
    const parts = p.split(/[\\/]/).filter(Boolean);
    return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : p;
  };
  switch (name) {
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'Delete':
      return rel(i.file_path);
    case 'Glob':
      return String(i.pattern ?? '');
    case 'Grep':
      return `${String(i.pattern ?? '')}${i.path ? ` in ${rel(i.path)}` : ''}`;
    case 'memory':
      // The API's memory tool: "create /memories/x.md", "rename /memories/a.md → /memories/b.md".
      return i.command === 'rename' ? `rename ${String(i.old_path)} → ${String(i.new_path)}` : `${String(i.command ?? '')} ${String(i.path ?? '')}`;
    default:
      return JSON.stringify(i).slice(0, 120);
  }
}

function resultText(block: Extract<ContentBlock, { type: 'tool_result' }>): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? [])
    .map((b) => (b.type === 'text' ? b.text : `[${b.type}]`))
    .join('\n');
}

const blocksOf = (r: MessageRecord): ContentBlock[] =>
  typeof r.message.content === 'string' ? [{ type: 'text', text: r.message.content }] : r.message.content;

/**
 * The display model of a transcript: user prompts, assistant answers (records of one API response
 * merged), tool calls paired with their results, compaction dividers. Reminders, compact summaries
 * and tool-result-only user records are not shown as messages. Outside a `live` turn, a tool call
 * without a result shows as interrupted.
 */
export function recordsToItems(
  records: TranscriptRecord[],
  projectDir: string,
  options: { live?: boolean } = {},
): ChatItem[] {
  const items: ChatItem[] = [];
  const tools = new Map<string, Extract<ChatItem, { kind: 'tool' }>>();
  const assistantByMessageId = new Map<string, Extract<ChatItem, { kind: 'assistant' }>>();
  const itemAt = new Map<string, number>();

  for (const record of records) {
    if (isItemRecord(record)) {
      // A newer state of an item already shown takes its place (as a live update does).
      const at = itemAt.get(record.item.id);
      if (at === undefined) itemAt.set(record.item.id, items.push(record.item) - 1);
      else items[at] = record.item;
      continue;
    }
    if (isCompactBoundary(record)) {
      const meta = record.compactMetadata;
      items.push({
        kind: 'compaction',
        id: record.uuid,
        path: meta.path === 'summarizer' || meta.path === 'server' ? meta.path : 'session-notes',
        reason: typeof meta.reason === 'string' ? meta.reason : null,
        tokensBefore: meta.preTokens,
        tokensAfter: typeof meta.postTokens === 'number' ? meta.postTokens : 0,
        keptMessages: typeof meta.keptMessages === 'number' ? meta.keptMessages : 0,
        transcriptPath: typeof meta.transcriptPath === 'string' ? meta.transcriptPath : '',
      });
      continue;
    }
    if (!isMessageRecord(record) || record.isMeta || record.isCompactSummary) continue;
    const blocks = blocksOf(record);
    if (record.type === 'user') {
      const text = blocks
        .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
        .map((b) => b.text)
        .join('\n')
        .trim();
      for (const b of blocks) {
        if (b.type !== 'tool_result') continue;
        const tool = tools.get(b.tool_use_id);
        if (tool) {
          const result = resultText(b);
          const next = { ...tool, status: toolStatus(b.is_error === true, result), result };
          tools.set(b.tool_use_id, next);
          items[items.indexOf(tool)] = next;
        }
      }
      if (text && !blocks.some((b) => b.type === 'tool_result')) {
        items.push({ kind: 'user', id: record.uuid, text, timestamp: record.timestamp });
      }
      continue;
    }
    for (const b of blocks) {
      if (b.type === 'text' || b.type === 'thinking') {
        const key = record.message.id ?? record.uuid;
        let item = assistantByMessageId.get(key);
        if (!item || items[items.length - 1] !== item) {
          // The API message id is the id the answer streamed under, so the final record replaces it.
          const id = item ? `${key}#${items.length}` : key;
          item = { kind: 'assistant', id, text: '', timestamp: record.timestamp };
          items.push(item);
        }
        const next =
          b.type === 'text'
            ? { ...item, text: item.text ? `${item.text}\n\n${b.text}` : b.text }
            : { ...item, thinking: (item.thinking ? `${item.thinking}\n\n` : '') + b.thinking };
        items[items.length - 1] = next;
        assistantByMessageId.set(key, next);
      } else if (b.type === 'tool_use') {
        const tool: Extract<ChatItem, { kind: 'tool' }> = {
          kind: 'tool',
          id: b.id,
          name: b.name,
          summary: summarizeToolInput(b.name, b.input, projectDir),
          input: b.input,
          status: 'running',
        };
        tools.set(b.id, tool);
        items.push(tool);
      }
    }
  }
  return items
    .filter((i) => i.kind !== 'assistant' || i.text.trim() !== '' || i.thinking)
    .map((i) =>
      // Outside a live turn, a call without a result was cut off (Stop, a crash).
      i.kind === 'tool' && i.status === 'running' && !options.live ? { ...i, status: 'error', result: 'Interrupted.' } : i,
    );
}
