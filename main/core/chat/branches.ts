import type { ChatItem } from '../../../common/domain/chat.js';
import { isMessageRecord, type ContentBlock, type MessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import { conversationChain } from '../transcripts/index.js';
import { displayRecords, isItemRecord, itemRecord } from './records-to-items.js';
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

/** The records under each record, in file order (kept copies of a compaction excluded). */
function childrenOf(file: readonly TranscriptRecord[]): Map<string, MessageRecord[]> {
  const children = new Map<string, MessageRecord[]>();
  for (const r of file) {
    if (!isMessageRecord(r) || typeof r.parentUuid !== 'string') continue;
    children.set(r.parentUuid, [...(children.get(r.parentUuid) ?? []), r]);
  }
  return children;
}

/** The answer text that followed `from` on its own branch (the first assistant text under it). */
function answerUnder(children: Map<string, MessageRecord[]>, from: string): string {
  let current = children.get(from)?.[0];
  const parts: string[] = [];
  while (current && current.message.role === 'assistant') {
    const t = textOf(current);
    if (t) parts.push(t);
    current = children.get(current.uuid)?.[0];
  }
  return parts.join('\n\n');
}

/** Where the branch starting at `from` ends: its newest descendant, down the newest child each time. */
function leafUnder(children: Map<string, MessageRecord[]>, from: string): string {
  let leaf = from;
  const seen = new Set<string>();
  for (let next = children.get(leaf)?.at(-1); next && !seen.has(next.uuid); next = children.get(leaf)?.at(-1)) {
    seen.add(next.uuid);
    leaf = next.uuid;
  }
  return leaf;
}

/**
 * A compaction that keeps the newest records word for word appends them again, under the same uuids:
 * one record, not a second answer to its question.
 */
function firstCopies(file: readonly TranscriptRecord[]): TranscriptRecord[] {
  const seen = new Set<string>();
  return file.filter((r) => {
    if (!isMessageRecord(r)) return true;
    if (seen.has(r.uuid)) return false;
    seen.add(r.uuid);
    return true;
  });
}

/** Adds to each question its earlier versions: other questions with the same parent, other answers to it. */
export function withEarlierVersions(items: ChatItem[], transcript: readonly TranscriptRecord[]): ChatItem[] {
  const file = firstCopies(transcript);
  const byUuid = new Map(file.filter(isMessageRecord).map((r) => [r.uuid, r] as const));
  const children = childrenOf(file);
  const prompts = file.filter(isPromptRecord);
  return items.map((item) => {
    if (item.kind !== 'user') return item;
    const record = byUuid.get(item.id);
    if (!record) return item;
    const earlier: { question: string; answer: string; leafUuid: string }[] = [];
    // Edited: the same place in the conversation, other words.
    for (const sibling of prompts) {
      if (sibling.uuid !== record.uuid && sibling.parentUuid === record.parentUuid && file.indexOf(sibling) < file.indexOf(record)) {
        earlier.push({ question: textOf(sibling), answer: answerUnder(children, sibling.uuid), leafUuid: leafUnder(children, sibling.uuid) });
      }
    }
    // Regenerated: the same question, answered again; all but the newest answer are earlier ones.
    // An answer hangs under the question, or under the memories attached to it (meta records).
    const under = new Set([record.uuid]);
    for (const r of file) if (isMessageRecord(r) && r.isMeta && typeof r.parentUuid === 'string' && under.has(r.parentUuid)) under.add(r.uuid);
    const answers = file.filter((r): r is MessageRecord => isMessageRecord(r) && r.message.role === 'assistant' && typeof r.parentUuid === 'string' && under.has(r.parentUuid));
    for (const old of answers.slice(0, -1)) {
      const rest = answerUnder(children, old.uuid);
      earlier.push({ question: item.text, answer: [textOf(old), rest].filter(Boolean).join('\n\n'), leafUuid: leafUnder(children, old.uuid) });
    }
    // A version continued from is copied (branchCopy): its original says nothing the question does not show.
    const newest = answers.at(-1);
    const shown = newest ? [textOf(newest), answerUnder(children, newest.uuid)].filter(Boolean).join('\n\n') : '';
    const distinct = earlier.filter((e, i) => !(e.question === item.text && e.answer === shown) && earlier.findIndex((o) => o.question === e.question && o.answer === e.answer) === i);
    return distinct.length > 0 ? { ...item, earlier: distinct } : item;
  });
}

/**
 * The cards of a branch (memory cards, "Stopped", notices), by the record they are anchored to: each
 * card once, under the record it first appeared after, in its newest state — an Undo or a proposal
 * decided since is what happened to that memory, wherever the card was showing then.
 */
function cardsByAnchor(file: readonly TranscriptRecord[], anchors: ReadonlySet<string>): Map<string, ChatItem[]> {
  const newest = new Map<string, ChatItem>();
  for (const r of file) if (isItemRecord(r)) newest.set(r.item.id, r.item);
  const placed = new Set<string>();
  const byAnchor = new Map<string, ChatItem[]>();
  for (const r of file) {
    if (!isItemRecord(r) || r.anchorUuid === undefined || !anchors.has(r.anchorUuid) || placed.has(r.item.id)) continue;
    placed.add(r.item.id);
    byAnchor.set(r.anchorUuid, [...(byAnchor.get(r.anchorUuid) ?? []), newest.get(r.item.id)!]);
  }
  return byAnchor;
}

/**
 * "Continue from this version": the branch ending at `leafUuid` becomes the conversation again. Its
 * records from where it left the current branch are appended anew (fresh uuids, the same parent at the
 * fork), so the newest leaf — what Strata and Claude Code both resume — is that version; the branch
 * the user leaves stays in the transcript as an earlier version. The cards that branch showed follow
 * its records (same item ids, anchored to the copies), so a memory it remembered still shows, with
 * its Undo. Empty when it is the conversation already.
 */
export function branchCopy(transcript: readonly TranscriptRecord[], leafUuid: string, make: { uuid: () => string; timestamp: string }): TranscriptRecord[] {
  const file = firstCopies(transcript);
  const byUuid = new Map(file.filter((r) => typeof r.uuid === 'string').map((r) => [r.uuid as string, r] as const));
  const path: TranscriptRecord[] = [];
  const seen = new Set<string>();
  for (let r = byUuid.get(leafUuid); r && !seen.has(r.uuid as string); r = typeof r.parentUuid === 'string' ? byUuid.get(r.parentUuid) : undefined) {
    seen.add(r.uuid as string);
    path.unshift(r);
  }
  const current = new Set(conversationChain(transcript).records.map((r) => r.uuid));
  const fork = path.findIndex((r) => !current.has(r.uuid));
  if (fork === -1) return [];
  const leaving = path.slice(fork);
  const cards = cardsByAnchor(transcript, new Set(leaving.map((r) => r.uuid as string)));
  let parentUuid = path[fork]!.parentUuid ?? null;
  return leaving.flatMap((r) => {
    const copy = { ...r, uuid: make.uuid(), parentUuid, timestamp: make.timestamp } as TranscriptRecord;
    parentUuid = copy.uuid as string;
    return [copy, ...(cards.get(r.uuid as string) ?? []).map((item) => itemRecord(item, Date.parse(make.timestamp), parentUuid as string))];
  });
}
