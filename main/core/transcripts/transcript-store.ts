import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { assertSessionId, isValidSessionId } from '../paths/index.js';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports.js';
import type { ParsedTranscript } from './jsonl.js';
import { appendRecords, readTranscriptFile } from './transcript-file.js';
import { KeyedSequencer } from '../../../common/async/sequencer.js';
import type { TranscriptRecord } from './records.js';
import { summarizeTranscript, type CustomTitleRecord, type SessionSummary } from './session-summary.js';
import { VaultTrash, type TrashEntry } from './trash.js';
import { IncognitoSessions } from './incognito.js';

export interface TranscriptStoreOptions {
  vaultRoot: string;
  clock?: Clock;
  logger?: Logger;
  /** Days a deleted conversation stays restorable (`config.vault.trashDays`). */
  trashDays?: number;
  /** Where incognito transcripts are kept (the system's temp folder by default). */
  tempDir?: string;
}

/** How many transcripts are summarized at once while listing. */
const LIST_CONCURRENCY = 16;

/**
 * Transcripts, one JSONL file a session, at `<vault>/projects/<projectSlug>/<sessionId>.jsonl`
 * (docs/architecture.md#data-on-disk). `projectSlug` is `ProjectPaths.projectSlug` (slug of the opened folder).
 *
 * Appends are crash-safe without rewriting: one write of whole lines per batch, then fsync. A crash can
 * only tear the last line; reads skip it, and the next append starts on a new line.
 */
export class TranscriptStore {
  readonly vaultRoot: string;
  readonly trash: VaultTrash;
  private readonly logger: Logger;
  private readonly queue = new KeyedSequencer();
  /** Conversations whose transcript stays out of the vault (incognito.ts). */
  readonly incognito: IncognitoSessions;

  constructor(options: TranscriptStoreOptions) {
    this.vaultRoot = path.resolve(options.vaultRoot);
    this.logger = options.logger ?? silentLogger;
    this.incognito = new IncognitoSessions(options.tempDir);
    this.trash = new VaultTrash(this.vaultRoot, options.clock ?? systemClock, options.trashDays ?? 30);
  }

  projectDir(projectSlug: string): string {
    if (!/^[A-Za-z0-9-]+$/.test(projectSlug)) throw new AppFailure('invalid_request', `Not a project slug: ${JSON.stringify(projectSlug)}`);
    return path.join(this.vaultRoot, 'projects', projectSlug);
  }

  fileFor(projectSlug: string, sessionId: string): string {
    this.checkSessionId(sessionId);
    const dir = this.projectDir(projectSlug);
    return path.join(this.incognito.has(sessionId) ? this.incognito.dirFor(projectSlug) : dir, `${sessionId}.jsonl`);
  }

  /** Appends records as one batch (one write + fsync); creates the file and its folder on first use. */
  async append(projectSlug: string, sessionId: string, records: readonly TranscriptRecord[]): Promise<void> {
    const file = this.fileFor(projectSlug, sessionId);
    if (records.length === 0) return;
    return this.queue.run(file, () => appendRecords(file, records));
  }

  /** Loads a whole transcript (resume); malformed lines are reported and skipped. */
  async read(projectSlug: string, sessionId: string): Promise<ParsedTranscript> {
    const file = this.fileFor(projectSlug, sessionId);
    let parsed: ParsedTranscript;
    try {
      parsed = await readTranscriptFile(file);
    } catch (error) {
      if (error instanceof AppFailure && error.code === 'not_found') {
        throw new AppFailure('not_found', `No conversation ${sessionId} in this project`);
      }
      throw error;
    }
    if (parsed.malformed.length > 0 || parsed.tornTail) {
      this.logger.warn('transcript has unreadable lines; they were skipped', {
        file,
        malformedLines: parsed.malformed.map((m) => m.line),
        tornTail: parsed.tornTail,
      });
    }
    return parsed;
  }

  async exists(projectSlug: string, sessionId: string): Promise<boolean> {
    return !!(await fs.stat(this.fileFor(projectSlug, sessionId)).catch(() => null));
  }

  /** The project's sessions, newest first, each summarized from the head and tail of its file. */
  async list(projectSlug: string): Promise<SessionSummary[]> {
    const dir = this.projectDir(projectSlug);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const ids = names.filter((n) => n.endsWith('.jsonl')).map((n) => n.slice(0, -'.jsonl'.length)).filter(isValidSessionId);
    const out: SessionSummary[] = [];
    for (let i = 0; i < ids.length; i += LIST_CONCURRENCY) {
      const batch = ids.slice(i, i + LIST_CONCURRENCY);
      const summaries = await Promise.all(
        batch.map((id) =>
          summarizeTranscript(path.join(dir, `${id}.jsonl`), id).catch((error: unknown) => {
            // A file deleted or unreadable mid-listing drops out of the list; the rest still shows.
            this.logger.warn('cannot summarize transcript', { sessionId: id, error: (error as Error).message });
            return null;
          }),
        ),
      );
      for (const s of summaries) if (s) out.push(s);
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async summarize(projectSlug: string, sessionId: string): Promise<SessionSummary> {
    const file = this.fileFor(projectSlug, sessionId);
    if (!(await fs.stat(file).catch(() => null))) throw new AppFailure('not_found', `No conversation ${sessionId} in this project`);
    return summarizeTranscript(file, sessionId);
  }

  /** Renames a conversation the way Claude Code does: a `custom-title` record appended; the latest wins. */
  async rename(projectSlug: string, sessionId: string, title: string): Promise<void> {
    const clean = title.replace(/\s+/g, ' ').trim();
    if (clean === '') throw new AppFailure('invalid_request', 'A title cannot be empty');
    if (!(await this.exists(projectSlug, sessionId))) throw new AppFailure('not_found', `No conversation ${sessionId} in this project`);
    const record: CustomTitleRecord = { type: 'custom-title', customTitle: clean, sessionId };
    await this.append(projectSlug, sessionId, [record]);
  }

  /**
   * Deletes a conversation — its transcript, its session folder (notes) and `extraPaths` (e.g. its
   * `.strata/sessions/<id>.json`) — into the vault's trash; `restore(entry.id)` undoes it.
   */
  async delete(projectSlug: string, sessionId: string, extraPaths: string[] = []): Promise<TrashEntry> {
    const file = this.fileFor(projectSlug, sessionId);
    return this.queue.run(file, async () => {
      const summary = await summarizeTranscript(file, sessionId).catch(() => null);
      return this.trash.moveIn([file, path.join(this.projectDir(projectSlug), sessionId), ...extraPaths], {
        kind: 'conversation',
        label: summary?.title ?? sessionId,
        meta: { projectSlug, sessionId },
      });
    });
  }

  restore(trashId: string): Promise<TrashEntry> {
    return this.trash.restore(trashId);
  }

  /** Drops trash entries older than the retention period (call at start-up and daily). */
  purgeTrash(): Promise<number> {
    return this.trash.purgeExpired();
  }

  private checkSessionId(sessionId: string): void {
    try {
      assertSessionId(sessionId);
    } catch {
      throw new AppFailure('invalid_request', `Not a session id: ${JSON.stringify(sessionId)}`);
    }
  }
}
