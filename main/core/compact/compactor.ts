import { currentConfig, type LiveConfig, type MemoryConfig } from '../../../common/config.js';
import type { Clock, Logger } from '../ports.js';
import {
  loadCustomization,
  notesPathFor,
  readNotes,
  realProjectPath,
  type SessionMemoryStateStore,
  type SummarizerFork,
} from '../session-memory/index.js';
import type { TranscriptRecord } from '../transcripts/index.js';
import { CompactionGuard } from './compaction-guard.js';
import { resultRecords, type CompactionResult, type FallbackReason } from './compaction-result.js';
import { legacyCompact } from './legacy-compact.js';
import type { ReadText } from './restored-files.js';
import { sessionMemoryCompact } from './session-memory-compact.js';

export interface CompactorDeps {
  vaultRoot: string;
  /** The numbers, or a getter so a settings change applies from the next compaction on. */
  config: LiveConfig<MemoryConfig['compaction']>;
  /** The same store the notes updater uses: cursors and the running-update marker. */
  stateStore: SessionMemoryStateStore;
  clock: Clock;
  logger: Logger;
  /** Waits `ms`; tests pass one that advances their clock. */
  sleep?: (ms: number) => Promise<void>;
  readText?: ReadText;
  guard?: CompactionGuard;
}

export interface CompactRequest {
  sessionId: string;
  projectDir: string;
  records: readonly TranscriptRecord[];
  transcriptPath?: string;
  trigger: 'auto' | 'manual';
  /** "Compact now" instructions: skip the notes and let the summarizer follow them (docs/memory.md#compaction). */
  instructions?: string;
  /** The one-turn, no-tools summarizer bound to this conversation's prefix. */
  summarize: SummarizerFork;
  /**
   * Server-side compaction: the summary the API already wrote (its `compaction` block). The records are
   * made as the summarizer path makes them — boundary, summary, recently read files — with no model call.
   */
  serverSummary?: string;
  signal?: AbortSignal;
}

/** What ran and why, for the chat's compaction divider. */
export interface CompactOutcome {
  path: 'session-notes' | 'summarizer' | 'server';
  /** Why the notes were not used (null when they were); `instructions` for a manual compaction with instructions. */
  reason: FallbackReason | 'instructions' | null;
  result: CompactionResult;
  /** The records to append to the transcript, in order. */
  records: TranscriptRecord[];
}

/** The one-second poll of docs/memory.md#compaction. */
const POLL_MS = 1_000;

/**
 * docs/memory.md#compaction: session-memory compaction first, the forked summarizer when it falls back; afterwards
 * `lastSummarizedMessageId` is reset (the caller injects CLAUDE.md and MEMORY.md again). Auto compactions count toward the breaker.
 */
export class Compactor {
  readonly guard: CompactionGuard;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly deps: CompactorDeps) {
    this.guard = deps.guard ?? new CompactionGuard(deps.config);
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  private get config(): MemoryConfig['compaction'] {
    return currentConfig(this.deps.config);
  }

  /** Waits for a running notes update: at most `waitForUpdateMs`, not at all for one older than `staleUpdateMs`. */
  async waitForRunningUpdate(sessionId: string): Promise<void> {
    const began = this.deps.clock.now();
    for (;;) {
      const { updateStartedAt } = await this.deps.stateStore.read(sessionId);
      const now = this.deps.clock.now();
      if (updateStartedAt === null || now - updateStartedAt > this.config.staleUpdateMs) return;
      if (now - began >= this.config.waitForUpdateMs) return;
      await this.sleep(POLL_MS);
    }
  }

  async compact(req: CompactRequest): Promise<CompactOutcome> {
    if (req.trigger === 'auto' && this.guard.isTripped(req.sessionId)) {
      throw new Error('auto-compaction stopped for this session after repeated failures');
    }
    try {
      const outcome = await this.run(req);
      this.guard.recordSuccess(req.sessionId);
      await this.deps.stateStore.update(req.sessionId, (s) => ({
        ...s,
        lastSummarizedMessageId: null,
        // Growth (docs/memory.md#session-notes) is measured in the compacted context from now on; otherwise the notes would
        // stay frozen until the context grew back past its pre-compaction size.
        tokensAtLastUpdate: Math.min(s.tokensAtLastUpdate, outcome.result.tokensAfter),
      }));
      return outcome;
    } catch (error) {
      if (req.trigger === 'auto') {
        const n = this.guard.recordFailure(req.sessionId);
        this.deps.logger.warn('auto-compaction failed', { sessionId: req.sessionId, failuresInARow: n, error: (error as Error).message });
      }
      throw error;
    }
  }

  private async run(req: CompactRequest): Promise<CompactOutcome> {
    if (req.serverSummary !== undefined) {
      const text = req.serverSummary;
      const noCall = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
      const result = await this.legacy(req, async () => ({ text, usage: noCall, cacheHitRatio: 0 }));
      return { path: 'server', reason: null, result, records: resultRecords(result) };
    }
    let reason: CompactOutcome['reason'] = 'instructions';
    if (!req.instructions?.trim()) {
      const sm = await this.trySessionMemory(req);
      if (sm.ok) return { path: 'session-notes', reason: null, result: sm.result, records: resultRecords(sm.result) };
      reason = sm.reason;
      this.deps.logger.info('session-memory compaction fell back', { sessionId: req.sessionId, reason, ...(sm.detail ? { detail: sm.detail } : {}) });
    }
    const result = await this.legacy(req, req.summarize);
    return { path: 'summarizer', reason, result, records: resultRecords(result) };
  }

  private legacy(req: CompactRequest, summarize: CompactRequest['summarize']) {
    return legacyCompact({
      records: req.records,
      summarize,
      trigger: req.trigger,
      config: this.config,
      ...(req.instructions ? { instructions: req.instructions } : {}),
      ...(req.transcriptPath ? { transcriptPath: req.transcriptPath } : {}),
      ...(this.deps.readText ? { readText: this.deps.readText } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      now: () => new Date(this.deps.clock.now()),
    });
  }

  private async trySessionMemory(req: CompactRequest) {
    try {
      await this.waitForRunningUpdate(req.sessionId);
      const [state, custom] = await Promise.all([this.deps.stateStore.read(req.sessionId), loadCustomization(this.deps.vaultRoot, this.deps.logger)]);
      const notesPath = notesPathFor(this.deps.vaultRoot, await realProjectPath(req.projectDir), req.sessionId);
      return sessionMemoryCompact({
        records: req.records,
        notes: await readNotes(notesPath),
        template: custom.template,
        lastSummarizedMessageId: state.lastSummarizedMessageId,
        // A manual compaction does not check the size (docs/memory.md#compaction).
        ...(req.trigger === 'auto' ? { threshold: this.guard.threshold } : {}),
        notesPath,
        ...(req.transcriptPath ? { transcriptPath: req.transcriptPath } : {}),
        trigger: req.trigger,
        config: this.config,
        now: () => new Date(this.deps.clock.now()),
      });
    } catch (error) {
      return { ok: false as const, reason: 'error' as const, detail: (error as Error).message, tokensBefore: 0 };
    }
  }
}
