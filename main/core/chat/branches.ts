import type { ChatItem } from '../../../common/domain/chat.js';
import { isMessageRecord, type ContentBlock, type MessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import { displayRecords } from './records-to-items.js';
import { isPromptRecord } from './turn-records.js';

/**
 * Branches of a conversation (Claude Code's `parentUuid` tree): an edited question is a new user
 * record beside the old one, a regenerated answer a new assistant record beside the old one. The
 * newest leaf is the conversation; the others stay in the transcript and show as earlier versions.
 */

const textOf = (r: MessageRecord): string =>
  typeof r.message.content === 'string'
    ? r.message.content
    : r.message.content
        .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
        .map((b) => b.text)
        .join('\n')
        .trim();

/** What the conversation showed up to `leafUuid` (inclusive): the view a branch starts from. */
export function recordsUpTo(file: readonly TranscriptRecord[], leafUuid: string | null): TranscriptRecord[] {
  if (leafUuid === null) return [];
  const at = file.findIndex((r) => r.uuid === leafUuid);
  return at === -1 ? [] : displayRecords(file.slice(0, at + 1));
}

/** The answer text that followed `from` on its own branch (the first assistant text under it). */
function answerUnder(file: readonly TranscriptRecord[], from: string): string {
  const children = new Map<string, MessageRecord[]>();
  for (const r of file) {
    if (!isMessageRecord(r) || typeof r.parentUuid !== 'string') continue;
    children.set(r.parentUuid, [...(children.get(r.parentUuid) ?? []), r]);
  }
  let current = children.get(from)?.[0];
  const parts: string[] = [];
  while (current && current.message.role === 'assistant') {
    const t = textOf(current);
    if (t) parts.push(t);
    current = children.get(current.uuid)?.[0];
  }
  return parts.join('\n\n');
}

/** Adds to each question its earlier versions: other questions with the same parent, other answers to it. */
export function withEarlierVersions(items: ChatItem[], file: readonly TranscriptRecord[]): ChatItem[] {
  const byUuid = new Map(file.filter(isMessageRecord).map((r) => [r.uuid, r] as const));
  const prompts = file.filter(isPromptRecord);
  return items.map((item) => {
    if (item.kind !== 'user') return item;
    const record = byUuid.get(item.id);
    if (!record) return item;
    const earlier: { question: string; answer: string }[] = [];
    // Edited: the same place in the conversation, other words.
    for (const sibling of prompts) {
      if (sibling.uuid !== record.uuid && sibling.parentUuid === record.parentUuid && file.indexOf(sibling) < file.indexOf(record)) {
        earlier.push({ question: textOf(sibling), answer: answerUnder(file, sibling.uuid) });
      }
    }
    // Regenerated: the same question, answered again; all but the newest answer are earlier ones.
    // An answer hangs under the question, or under the memories attached to it (meta records).
    const under = new Set([record.uuid]);
    for (const r of file) if (isMessageRecord(r) && r.isMeta && typeof r.parentUuid === 'string' && under.has(r.parentUuid)) under.add(r.uuid);
    const answers = file.filter((r): r is MessageRecord => isMessageRecord(r) && r.message.role === 'assistant' && typeof r.parentUuid === 'string' && under.has(r.parentUuid));
    for (const old of answers.slice(0, -1)) {
      const rest = answerUnder(file, old.uuid);
      earlier.push({ question: item.text, answer: [textOf(old), rest].filter(Boolean).join('\n\n') });
    }
    return earlier.length > 0 ? { ...item, earlier } : item;
  });
}
