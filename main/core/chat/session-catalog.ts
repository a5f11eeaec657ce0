import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Emitter } from '../../../common/async/event.js';
import type { BeforeCompaction, ChatSessionView, ContextMeter, SessionSummary } from '../../../common/domain/chat.js';
import { autoCompactThreshold, type MemoryConfig } from '../../../common/config.js';
import { AppFailure } from '../../../common/result.js';
import { ProjectPaths } from '../paths/index.js';
import { liveContextTokens } from '../session-memory/index.js';
import { conversationChain, conversationTitle, type TitleSources } from '../transcripts/index.js';
import { isCompactBoundary, isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import type { TranscriptStore } from '../transcripts/index.js';
import { displayRecords, isItemRecord, recordsToItems } from './records-to-items.js';
import { withEarlierVersions } from './branches.js';

export const NEW_SESSION_TITLE = 'New conversation';

/** docs/memory.md#compaction figures for the context meter. */
export function contextMeter(records: TranscriptRecord[], config: MemoryConfig): ContextMeter {
  const threshold = autoCompactThreshold(config.compaction);
  const used = liveContextTokens(records);
  const cleared = lastClearedTokens(records);
  return { used, threshold, warning: used >= threshold - config.compaction.warningBuffer, ...(cleared > 0 ? { cleared } : {}) };
}

/** What the API's context editing left out of the newest request (its response says; 0 when nothing). */
function lastClearedTokens(records: readonly TranscriptRecord[]): number {
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (isCompactBoundary(r)) return 0;
    if (isMessageRecord(r) && r.message.role === 'assistant' && r.message.usage) return r.message.context_management?.cleared_input_tokens ?? 0;
  }
  return 0;
}

/** A project's conversations as they are now, after one changed. */
export interface SessionsChange {
  project: string;
  sessions: SessionSummary[];
}

/**
 * The conversations of a project as the chat shows them: list, open (from the transcript), rename,
 * delete with undo. Running turns is the ChatRunner's job; the notes are the session-memory engine's.
 */
const INCOGNITO_UNDO = 'incognito:';

export class SessionCatalog {
  private readonly didChangeSessions = new Emitter<SessionsChange>();
  /** A project's list after a conversation was renamed, deleted, restored or moved on by a turn (the only source of `chat:did-change-sessions`). */
  readonly onDidChangeSessions = this.didChangeSessions.event;

  constructor(
    private readonly vaultRoot: string,
    private readonly transcripts: TranscriptStore,
    private readonly config: () => MemoryConfig,
  ) {}

  paths(project: string): Promise<ProjectPaths> {
    return ProjectPaths.resolve(this.vaultRoot, project);
  }

  async list(project: string): Promise<SessionSummary[]> {
    const paths = await this.paths(project);
    const sessions = await this.transcripts.list(paths.projectSlug);
    return Promise.all(
      sessions.map(async (s) => ({
        sessionId: s.sessionId,
        title: await this.title(paths, s),
        updatedAt: new Date(s.updatedAt).toISOString(),
        messageCount: s.messageCount,
      })),
    );
  }

  /** The one title the app names the conversation by (`conversationTitle`): a rename, the notes' Session Title, its first question. */
  private async title(paths: ProjectPaths, s: { sessionId: string; titles: Omit<TitleSources, 'notes'> }): Promise<string> {
    const notes = await fs.readFile(paths.sessionNotesFile(s.sessionId), 'utf8').catch(() => null);
    return conversationTitle({ ...s.titles, notes }) ?? NEW_SESSION_TITLE;
  }

  /** A fresh session: nothing is written until its first message; an incognito one never into the vault. */
  create(project: string, options: { incognito?: boolean } = {}): ChatSessionView {
    const sessionId = randomUUID();
    if (options.incognito) this.transcripts.incognito.add(sessionId);
    return {
      ...(options.incognito ? { incognito: true } : {}),
      projectPath: project,
      sessionId,
      title: NEW_SESSION_TITLE,
      items: [],
      phase: 'idle',
      error: null,
      context: contextMeter([], this.config()),
    };
  }

  /** The conversation the model sees and the chat shows: the chain from the last compact boundary. */
  async records(project: string, sessionId: string): Promise<TranscriptRecord[]> {
    const paths = await this.paths(project);
    if (!(await this.transcripts.exists(paths.projectSlug, sessionId))) return [];
    return conversationChain((await this.transcripts.read(paths.projectSlug, sessionId)).records).records;
  }

  async open(project: string, sessionId: string): Promise<ChatSessionView> {
    const paths = await this.paths(project);
    if (!(await this.transcripts.exists(paths.projectSlug, sessionId))) {
      throw new AppFailure('not_found', 'That conversation no longer exists.');
    }
    const file = (await this.transcripts.read(paths.projectSlug, sessionId)).records;
    const records = conversationChain(file).records;
    const summary = await this.transcripts.summarize(paths.projectSlug, sessionId);
    return {
      ...(this.transcripts.incognito.has(sessionId) ? { incognito: true } : {}),
      projectPath: project,
      sessionId,
      title: await this.title(paths, summary),
      items: withEarlierVersions(recordsToItems(displayRecords(file), project), file),
      phase: 'idle',
      error: null,
      context: contextMeter(records, this.config()),
    };
  }

  /**
   * What a compaction replaced, read-only (its divider's "Show the conversation before it"): the
   * conversation as it was shown up to that compaction, the summary the model works from since, and the
   * transcript's records up to it for "Show raw". Nothing was deleted; the model just no longer sees it.
   */
  async beforeCompaction(project: string, sessionId: string, compactionId: string): Promise<BeforeCompaction> {
    const paths = await this.paths(project);
    const gone = () => new AppFailure('not_found', 'That compaction is no longer in the conversation.');
    if (!(await this.transcripts.exists(paths.projectSlug, sessionId))) throw gone();
    const file = (await this.transcripts.read(paths.projectSlug, sessionId)).records;
    const at = file.findIndex((r) => r.uuid === compactionId && isCompactBoundary(r));
    if (at === -1) throw gone();
    const before = file.slice(0, at);
    const summary = file.slice(at + 1).find((r) => isMessageRecord(r) && r.isCompactSummary === true);
    const content = summary && isMessageRecord(summary) ? summary.message.content : '';
    // Cards and notices in their state now (a proposal accepted since, "Compacting…" that finished).
    const latest = new Map(file.filter(isItemRecord).map((r) => [r.item.id, r.item] as const));
    return {
      items: recordsToItems(displayRecords(before), project).map((i) => latest.get(i.id) ?? i),
      summary: typeof content === 'string' ? content : content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'),
      raw: before.map((r) => JSON.stringify(r)).join('\n'),
    };
  }

  async rename(project: string, sessionId: string, title: string): Promise<SessionSummary[]> {
    const paths = await this.paths(project);
    await this.transcripts.rename(paths.projectSlug, sessionId, title);
    return this.announce(project);
  }

  /** Lists the project's conversations and tells the listeners; a turn calls it when it changed one (its title, its time). */
  async announce(project: string): Promise<SessionSummary[]> {
    const sessions = await this.list(project);
    this.didChangeSessions.fire({ project, sessions });
    return sessions;
  }

  /** Moves the transcript, the session folder (notes) and its state file to the trash. */
  async delete(project: string, sessionId: string): Promise<{ undoToken: string }> {
    const paths = await this.paths(project);
    // An incognito conversation is never put in the vault's trash: deleting it ends it for good.
    if (this.transcripts.incognito.has(sessionId)) {
      await this.transcripts.incognito.discard(paths.projectSlug, sessionId);
      return { undoToken: `${INCOGNITO_UNDO}${sessionId}` };
    }
    if (!(await this.transcripts.exists(paths.projectSlug, sessionId))) {
      throw new AppFailure('not_found', 'That conversation no longer exists.');
    }
    const state = path.join(this.vaultRoot, '.strata', 'sessions', `${sessionId}.json`);
    const extra = (await fs.stat(state).catch(() => null)) ? [state] : [];
    const entry = await this.transcripts.delete(paths.projectSlug, sessionId, extra);
    await this.announce(project);
    return { undoToken: entry.id };
  }

  async undoDelete(project: string, undoToken: string): Promise<SessionSummary[]> {
    if (undoToken.startsWith(INCOGNITO_UNDO)) throw new AppFailure('not_found', 'An incognito conversation is gone for good once deleted.');
    await this.transcripts.restore(undoToken);
    return this.announce(project);
  }
}
