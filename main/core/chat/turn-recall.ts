import { randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import type { ChatItem } from '../../../common/domain/chat.js';
import { RecordBuilder } from '../agent/index.js';
import { MemoryUsageStore, renderRecalled, whyLine } from '../auto-memory/index.js';
import type { ReadState } from '../tools/index.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import { sideQueryOf, type ConversationAgent } from './agent-setup.js';
import { RECALL_FIELD, RecallLedger } from './recall-ledger.js';
import { recentToolNames } from './turn-records.js';
import type { ConversationHost } from './conversation-host.js';

/** What recall needs of its conversation. */
export interface TurnRecallHost extends ConversationHost {
  /** What the agent read this session: a memory it read is never attached as well. */
  readState: ReadState;
  /** Background work the session waits for before it is idle. */
  track(work: Promise<unknown>): void;
  /** Shows (null: clears) the conversation's progress line while the turn waits for recall. */
  progress(text: string | null): void;
}

/** Recall that takes longer than this before the first token says so in the chat (docs/memory.md#recall). */
const RECALL_PROGRESS_AFTER_MS = 1_000;

/** The progress line, in words a user knows: how many memories are looked through, once that is known. */
const findingMemories = (files: number | null): string => (files === null ? 'Finding memories…' : `Finding memories… (${files.toLocaleString('en-US')})`);

export type RecallItem = Extract<ChatItem, { kind: 'recall' }>;

/**
 * docs/memory.md#auto-memory recall for one conversation: up to 5 memory files attached to a question,
 * as a meta record before it, each once while it is in the context; the chips under the question show which.
 */
export class TurnRecall {
  private readonly ledger = new RecallLedger();
  /** The memories recall marked read because it showed them whole (see forQuestion). */
  private readonly markedRead = new Set<string>();

  constructor(private readonly host: TurnRecallHost) {}

  /**
   * The attachments still in the context count again: a resumed session's, or those a compaction kept
   * (what it replaced may come back, docs/memory.md#recall step 9).
   */
  recount(records: readonly TranscriptRecord[]): void {
    this.ledger.recount(records);
  }

  /** Attaches the memories relevant to `query`; the chip item to show under the question, or null when none. */
  async forQuestion(agent: ConversationAgent, query: string, signal: AbortSignal): Promise<RecallItem | null> {
    const { host } = this;
    // Real paths, as the tools record what they read: a file the agent already read is never attached.
    const memoryDir = await realpath(agent.paths.memoryDir).catch(() => agent.paths.memoryDir);
    // One per folder, kept by the engines across turns: no rescan of unchanged files, no index rebuild.
    const recall = host.engines.recallFor(memoryDir);
    // What recall itself marked read is the ledger's to count (a compaction lets it come back).
    const seen = new Set([...this.ledger.paths, ...host.readState.paths().filter((p) => !this.markedRead.has(p))]);
    // A first turn in a large vault, or one asked while the vault still opens, can take a while: after a
    // second the chat says what it waits on, with the count once the folder is read.
    let files: number | null = null;
    let shown = false;
    const slow = setTimeout(() => {
      shown = true;
      host.progress(findingMemories(files));
    }, RECALL_PROGRESS_AFTER_MS);
    const onFiles = (count: number) => {
      files = count;
      if (shown) host.progress(findingMemories(files));
    };
    const result = await recall
      .recall({ query, seen, sessionBytesUsed: this.ledger.bytes, recentTools: recentToolNames(await host.history()), sideQuery: sideQueryOf(agent.small), signal, onFiles })
      .catch((error: unknown) => {
        host.logger.warn('recall failed', { error: (error as Error).message });
        return null;
      })
      .finally(() => {
        clearTimeout(slow);
        if (shown) host.progress(null);
      });
    if (!result || result.memories.length === 0) return null;
    const note = this.ledger.attach(result.memories);
    await this.appendMeta(agent, result.memories.map(renderRecalled).join('\n\n'), { [RECALL_FIELD]: note });
    // A memory shown whole counts as read, as Claude Code marks the memories it attaches: the agent (and
    // the extractor after it) may update it without a Read first, until the file changes on disk.
    for (const m of result.memories.filter((m) => m.whole)) {
      await host.readState.record(m.absPath, m.content);
      this.markedRead.add(m.absPath);
    }
    // Each memory counts this use (docs/memory.md#provenance-and-use), in the background like extraction.
    host.track(MemoryUsageStore.forVault(host.env.vaultRoot, host.clock).record(note.paths, host.sessionId));
    return {
      kind: 'recall',
      id: `recall-${randomUUID()}`,
      memories: result.memories.map((m) => {
        const pick = result.explain.picks.find((p) => p.relPath === m.relPath);
        return { path: vaultRelative(host.env.vaultRoot, m.absPath), title: m.title, ageDays: m.ageDays, ...(pick ? { why: whyLine(pick) } : {}) };
      }),
    };
  }

  private async appendMeta(agent: ConversationAgent, text: string, extra: Record<string, unknown>): Promise<void> {
    const history = await this.host.history();
    const builder = new RecordBuilder(history, { sessionId: this.host.sessionId, cwd: agent.paths.projectDir }, this.host.clock, false);
    await this.host.append([{ ...builder.make('user', { role: 'user', content: text }), isMeta: true, ...extra }]);
  }
}

function vaultRelative(vaultRoot: string, abs: string): string {
  const rel = abs.startsWith(vaultRoot) ? abs.slice(vaultRoot.length + 1) : abs;
  return rel.split('\\').join('/');
}
