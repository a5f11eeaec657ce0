import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ChatSessionView, ContextMeter, SessionSummary } from '../../../common/domain/chat.js';
import { autoCompactThreshold, type MemoryConfig } from '../../../common/config.js';
import { AppFailure } from '../../../common/result.js';
import { ProjectPaths } from '../paths/index.js';
import { liveContextTokens } from '../session-memory/index.js';
import { conversationChain } from '../transcripts/index.js';
import { isCompactBoundary, isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';
import type { TranscriptStore } from '../transcripts/index.js';
import { displayRecords, recordsToItems } from './records-to-items.js';
import { withEarlierVersions } from './branches.js';
import { readNotesTitle } from './session-title.js';

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

/**
 * The conversations of a project as the chat shows them: list, open (from the transcript), rename,
 * delete with undo. Running turns is the ChatRunner's job; the notes are the session-memory engine's.
 */
export class SessionCatalog {
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

  /** The user's own title (a rename), else the session notes' Session Title, else the first question. */
  private async title(paths: ProjectPaths, s: { sessionId: string; title: string | null; titleSource: string | null }): Promise<string> {
    if (s.titleSource === 'custom' && s.title) return s.title;
    return (await readNotesTitle(paths.sessionNotesFile(s.sessionId))) ?? s.title ?? NEW_SESSION_TITLE;
  }

  /** A fresh session: nothing is written until its first message. */
  create(project: string): ChatSessionView {
    return {
      projectPath: project,
      sessionId: randomUUID(),
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
      projectPath: project,
      sessionId,
      title: await this.title(paths, summary),
      items: withEarlierVersions(recordsToItems(displayRecords(file), project), file),
      phase: 'idle',
      error: null,
      context: contextMeter(records, this.config()),
    };
  }

  async rename(project: string, sessionId: string, title: string): Promise<SessionSummary[]> {
    const paths = await this.paths(project);
    await this.transcripts.rename(paths.projectSlug, sessionId, title);
    return this.list(project);
  }

  /** Moves the transcript, the session folder (notes) and its state file to the trash. */
  async delete(project: string, sessionId: string): Promise<{ undoToken: string }> {
    const paths = await this.paths(project);
    if (!(await this.transcripts.exists(paths.projectSlug, sessionId))) {
      throw new AppFailure('not_found', 'That conversation no longer exists.');
    }
    const state = path.join(this.vaultRoot, '.strata', 'sessions', `${sessionId}.json`);
    const extra = (await fs.stat(state).catch(() => null)) ? [state] : [];
    const entry = await this.transcripts.delete(paths.projectSlug, sessionId, extra);
    return { undoToken: entry.id };
  }

  async undoDelete(undoToken: string): Promise<void> {
    await this.transcripts.restore(undoToken);
  }
}
