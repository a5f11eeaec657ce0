import { applySnapshot } from './pull-apply.js';
import { applyEntryLimit, expireEntryLimit, planPush } from './push-plan.js';
import { backoffDelay, batchEntries } from './batching.js';
import { readLocalTree, WrittenFiles } from './local-tree.js';
import { expireDeleted, missingRemoteContent, SyncStateStore, type SyncState } from './sync-state.js';
import { InjectedCrash, noFaults, type FaultSeam } from './fault-seam.js';
import { failureToError } from './sync-errors.js';
import { removeStaleTempFiles, staleTempMs } from './temp-cleanup.js';
import { deleteRecheckMs, folderVanished, holdMassDeletions, recheckDeletions } from './delete-guard.js';
import { withRetry } from './retry.js';
import { ConflictDesk } from './conflict-desk.js';
import type { ApiFailure, GetResult } from './team-api.js';
import { WaitBudget, type RequestScope } from './wait-budget.js';
import {
  emptyReport,
  type FileFailure,
  type FileSyncState,
  type SyncReport,
  type TeamSyncEngineOptions,
  type TeamSyncStatus,
} from './sync-types.js';

/**
 * Offline-first team-memory sync for one project and repository (docs/memory.md#team-memory; docs/memory.md#team-sync
 * item 2). Every run loads the state from disk, so a crash or restart loses nothing but the run.
 * Runs are serialised: a sync, a conflict resolution and a restore never interleave.
 */
export class TeamSyncEngine extends ConflictDesk {
  private readonly fault: FaultSeam;
  private readonly random: () => number;
  /** When temp files left by a crash were last looked for (clock ms; null: not yet). */
  private lastTempCleanup: number | null = null;
  /** The files the latest run downloaded (see WrittenFiles). */
  private written = new WrittenFiles();
  /** Aborted by `close()`: ends the request in flight and any backoff wait at once. */
  private readonly closing = new AbortController();
  /** What the current run lends each request: `closing`'s signal and the run's wait budget. */
  private scope: RequestScope = { signal: this.closing.signal };
  private current: TeamSyncStatus = { phase: 'synced', progress: null, pending: 0, conflicts: [], blocked: [], tooLarge: [], invalidNames: [], failed: [], lastSyncAt: null, error: null };

  constructor(private readonly o: TeamSyncEngineOptions) {
    const fault = o.fault ?? noFaults;
    super(o, new SyncStateStore(o.stateDir, fault, o.logger, o.clock));
    this.fault = fault;
    this.random = o.random ?? Math.random;
  }

  /**
   * Stops syncing for good: the request in flight is aborted, a backoff wait ends, and the run returns
   * with a `cancelled` error. State is saved atomically at every step, so what is on disk stays
   * consistent (a crash at any point is survivable by design); what was not pushed stays pending.
   * Resolves when the run in progress, if any, has returned.
   */
  async close(): Promise<void> {
    this.closing.abort(new Error('the team sync was closed'));
    await this.exclusive(async () => undefined);
  }

  /** The last status, as the sync indicator shows it. */
  status(): TeamSyncStatus {
    return this.current;
  }

  /**
   * One pull and one push (`strata sync`, "sync now", the start-up and 5-minute runs).
   * `confirmDeletions`: the user confirmed deleting more files than the mass-delete guard lets through.
   */
  sync(options: { confirmDeletions?: boolean } = {}): Promise<SyncReport> {
    return this.exclusive(() => this.run(true, true, options.confirmDeletions === true));
  }

  pull(): Promise<SyncReport> {
    return this.exclusive(() => this.run(true, false));
  }

  push(): Promise<SyncReport> {
    return this.exclusive(() => this.run(false, true));
  }

  /** Every team file's badge (docs/memory.md#team-memory: synced, pending, conflict, blocked by a secret, too large). */
  fileStates(): Promise<Map<string, FileSyncState>> {
    return this.exclusive(async () => {
      const state = await this.store.load();
      const local = await this.localTree();
      const plan = planPush(state, local, this.o.scan, this.o.config.maxFileBytes);
      const out = new Map<string, FileSyncState>();
      for (const { key } of local.invalid) out.set(key, 'invalid-name');
      for (const key of local.keys()) out.set(key, local.get(key)!.hash === state.bases[key] ? 'synced' : 'pending');
      for (const key of Object.keys(state.bases)) if (!local.has(key)) out.set(key, 'pending');
      for (const b of plan.blocked) out.set(b.key, 'blocked');
      for (const key of plan.tooLarge) out.set(key, 'too-large');
      for (const key of Object.keys(state.failed)) out.set(key, 'failed');
      for (const key of Object.keys(state.conflicts)) out.set(key, 'conflict');
      return out;
    });
  }

  /** The team folder now; files this run downloaded and nobody touched since are not read again. */
  private localTree() {
    return readLocalTree(this.o.teamDir, this.written);
  }

  private async run(pull: boolean, push: boolean, confirmDeletions = false): Promise<SyncReport> {
    const report = emptyReport();
    this.written = new WrittenFiles();
    this.scope = { signal: this.closing.signal, budget: new WaitBudget(this.o.config.unansweredBudgetMs) };
    if (this.closing.signal.aborted) {
      report.error = failureToError({ kind: 'cancelled' });
      return report;
    }
    let state: SyncState | null = null;
    this.emit({ ...this.current, phase: 'syncing', progress: { done: 0, total: 0 } });
    try {
      const now = this.o.clock.now();
      // At the first run, and again once anything a crash left then is old enough to go (a killed first
      // pull can leave thousands of staged downloads, too young at a restart right after it).
      if (this.lastTempCleanup === null || now - this.lastTempCleanup >= staleTempMs) {
        this.lastTempCleanup = now;
        const removed = (await removeStaleTempFiles(this.o.teamDir, now)) + (await removeStaleTempFiles(this.o.stateDir, now));
        if (removed > 0) this.o.logger.info('removed temp files left by an interrupted write', { count: removed });
      }
      state = await this.store.load();
      const setAside = this.store.takeSetAside();
      if (setAside) report.warnings.push(setAside);
      expireDeleted(state, this.o.clock.now() - this.o.config.tombstoneDays * 86_400_000);
      expireEntryLimit(state, this.o.clock.now());
      let forcePull = false;
      if (!confirmDeletions && folderVanished(await this.localTree(), state)) {
        // Every synced file gone at once: bring them back from the server rather than delete them for all.
        report.warnings.push(`the team folder was empty; restored its ${Object.keys(state.bases).length} files from the team server (delete files a few at a time, or confirm, to delete them for everyone)`);
        state.bases = {};
        forcePull = true;
      }
      if (pull || forcePull) await this.pullStep(state, report, forcePull);
      if (push && !report.error) await this.pushStep(state, report, confirmDeletions);
      await this.finish(state, report);
    } catch (error) {
      if (error instanceof InjectedCrash) throw error;
      this.o.logger.error('team sync failed', { message: (error as Error).message });
      report.error = { code: 'local_io', message: (error as Error).message };
    }
    this.emit({
      phase: report.error ? (report.error.code === 'offline' ? 'offline' : 'error') : 'synced',
      progress: null,
      pending: report.pending.length,
      conflicts: report.conflicts,
      blocked: report.blocked,
      tooLarge: report.tooLarge,
      invalidNames: report.invalidNames,
      failed: report.failed,
      heldDeletions: report.heldDeletions,
      lastSyncAt: state?.lastSyncAt ?? this.current.lastSyncAt,
      error: report.error,
    });
    return report;
  }

  /** A pull: If-None-Match unless some server change is known but not downloaded yet. */
  private async pullStep(state: SyncState, report: SyncReport, force: boolean): Promise<boolean> {
    const ifNoneMatch = force || missingRemoteContent(state) ? null : state.etag;
    const result = await this.withRetry(() => this.o.api.get(ifNoneMatch, this.scope));
    if (result.kind === 'not-modified') return true;
    if (result.kind !== 'snapshot' && result.kind !== 'not-found') {
      report.error = failureToError(result);
      return false;
    }
    const snapshot = result.kind === 'snapshot' ? result.snapshot : null;
    const hadMemory = state.serverVersion !== null;
    const rollback = hadMemory && (snapshot === null || snapshot.version < state.serverVersion!);
    await applySnapshot(
      {
        teamDir: this.o.teamDir,
        store: this.store,
        state,
        report,
        fault: this.fault,
        clock: this.o.clock,
        logger: this.o.logger,
        progress: (d, t) => this.progress(d, t),
        written: this.written,
        describe: (key) => this.o.api.entryInfo?.(key, this.scope) ?? Promise.resolve(null),
      },
      snapshot,
      rollback,
    );
    state.remote = { ...(snapshot?.entryChecksums ?? {}) };
    state.etag = snapshot?.checksum ?? null;
    state.serverVersion = snapshot?.version ?? null;
    await this.store.save(state);
    return true;
  }

  /**
   * The push loop (docs/memory.md#team-memory): delta by hash, batches, on 412/428 a hash probe and a fresh delta, at most
   * `max412Retries` retries. A key that changed on both sides goes through the pull's decision table
   * instead of overwriting the teammate's edit (the reference's loss, docs/sync-protocol.md#a-client-that-loses-nothing).
   */
  private async pushStep(state: SyncState, report: SyncReport, confirmDeletions: boolean): Promise<void> {
    let learnedLimit = false;
    // Keys the server refused in this run (a name it will not hold): each waits on its own.
    const refused = new Set<string>();
    for (let attempt = 0; ; ) {
      let plan = planPush(state, await this.localTree(), this.o.scan, this.o.config.maxFileBytes, refused);
      if (plan.needsPull) {
        if (!(await this.pullStep(state, report, true))) return;
        plan = planPush(state, await this.localTree(), this.o.scan, this.o.config.maxFileBytes, refused);
      }
      await this.recordAgreed(state, plan.agreed);
      if (!confirmDeletions) {
        const held = holdMassDeletions(plan, state);
        if (held.length > 0) {
          report.heldDeletions = held;
          report.warnings.push(`${held.length} files were deleted here; more than one sync deletes for everyone without your confirmation, so they stay on the team server until you confirm (strata sync --confirm-deletions)`);
        }
      }
      await recheckDeletions(plan, this.o.teamDir, () => this.pause(deleteRecheckMs));
      applyEntryLimit(plan, state);
      if (plan.overLimit.length > 0) {
        report.warnings.push(`the team server takes at most ${state.maxEntries} files; ${plan.overLimit.length} new files wait: ${plan.overLimit.join(', ')}`);
      }
      if (Object.keys(plan.upload).length === 0) return;

      const outcome = await this.putBatches(state, report, plan.upload);
      if (outcome === 'done') return;
      if (typeof outcome === 'object') {
        refused.add(outcome.refused.key);
        report.failed.push(outcome.refused);
        continue;
      }
      if (outcome === 'too-many' && !learnedLimit) {
        learnedLimit = true;
        continue;
      }
      if (outcome !== 'stale') return;
      if (attempt++ >= this.o.config.max412Retries) {
        report.error = { code: 'contention', message: 'the team memory kept changing on the server; local changes stay pending and are retried at the next sync' };
        return;
      }
      await this.pause(backoffDelay(attempt, this.o.config.backoffBaseMs, this.o.config.backoffCapMs, this.random));
      const probe = await this.withRetry(() => this.o.api.hashes(this.scope));
      if (probe.kind !== 'snapshot' && probe.kind !== 'not-found') {
        report.error = failureToError(probe);
        return;
      }
      if (!(await this.adoptProbe(state, report, probe))) return;
    }
  }

  /** Takes a hash probe as the server's view; when it shows content we lack, a full pull decides. */
  private async adoptProbe(state: SyncState, report: SyncReport, probe: GetResult): Promise<boolean> {
    const snapshot = probe.kind === 'snapshot' ? probe.snapshot : null;
    const sums = snapshot?.entryChecksums ?? {};
    const local = await this.localTree();
    const keys = new Set([...Object.keys(sums), ...Object.keys(state.bases)]);
    const needsContent = [...keys].some((key) => {
      const remote = sums[key] ?? null;
      return remote !== (state.bases[key] ?? null) && remote !== (local.get(key)?.hash ?? null) && state.conflicts[key]?.theirsHash !== remote;
    });
    if (needsContent || (snapshot !== null && state.serverVersion !== null && snapshot.version < state.serverVersion)) {
      return this.pullStep(state, report, true);
    }
    state.remote = { ...sums };
    state.etag = snapshot?.checksum ?? null;
    state.serverVersion = snapshot?.version ?? null;
    return true;
  }

  /** PUTs batch after batch, threading the ETag; the base of each key becomes what was *sent*. */
  private async putBatches(
    state: SyncState,
    report: SyncReport,
    upload: Record<string, string | null>,
  ): Promise<'done' | 'stale' | 'too-many' | 'failed' | { refused: FileFailure }> {
    const batches = batchEntries(upload, this.o.config.maxBatchBytes);
    const total = Object.keys(upload).length;
    let done = 0;
    for (const batch of batches) {
      this.progress(done, total);
      // Noted before sending: if the server takes it and the answer or the next state write is lost,
      // the next pull sees our own checksum and takes it as the base (pull-apply adoptUnrecordedBase).
      for (const [key, text] of Object.entries(batch)) if (text !== null) state.sending[key] = await this.store.putBase(text);
      await this.store.save(state);
      const result = await this.withRetry(() => this.o.api.put(batch, state.etag, this.scope));
      if (result.kind !== 'ok') {
        if (result.kind === 'http' && (result.status === 412 || result.status === 428)) return 'stale';
        // One key the server will not hold (its name, its size) fails alone; the rest are sent again.
        if (result.kind === 'http' && result.key !== undefined && result.key in batch && result.status >= 400 && result.status < 500) {
          return { refused: { key: result.key, step: 'push', reason: `the team server refused it: ${result.message}`, advice: refusalAdvice(result.code) } };
        }
        report.error = failureToError(result);
        if (result.kind === 'http' && result.maxEntries) {
          state.maxEntries = result.maxEntries;
          state.maxEntriesLearnedAt = new Date(this.o.clock.now()).toISOString();
          await this.store.save(state);
          return 'too-many';
        }
        return 'failed';
      }
      for (const [key, text] of Object.entries(batch)) {
        if (text === null) {
          this.forgetDeleted(state, key);
        } else {
          const hash = await this.store.putBase(text);
          state.bases[key] = hash;
          state.remote[key] = hash;
          delete state.sending[key];
        }
      }
      state.etag = result.checksum;
      if (result.version !== null) state.serverVersion = result.version;
      report.pushed.push(...Object.keys(batch));
      done += Object.keys(batch).length;
      this.fault.hit('after-batch-put');
      await this.store.save(state);
    }
    report.error = null;
    return 'done';
  }

  private async recordAgreed(state: SyncState, agreed: Record<string, string | null>): Promise<void> {
    for (const [key, text] of Object.entries(agreed)) {
      if (text === null) this.forgetDeleted(state, key);
      else state.bases[key] = await this.store.putBase(text);
    }
  }

  private forgetDeleted(state: SyncState, key: string): void {
    const base = state.bases[key];
    if (base) state.deleted[key] = { hash: base, deletedAt: new Date(this.o.clock.now()).toISOString(), by: 'local' };
    delete state.bases[key];
    delete state.remote[key];
  }

  /** Closes the run: the report's lists, the persisted blocked list, base texts no longer needed. */
  private async finish(state: SyncState, report: SyncReport): Promise<void> {
    const local = await this.localTree();
    report.invalidNames = [...local.invalid].sort((a, b) => a.key.localeCompare(b.key));
    report.failed.sort((a, b) => a.key.localeCompare(b.key));
    state.failed = Object.fromEntries(report.failed.map((f) => [f.key, { step: f.step, reason: f.reason, advice: f.advice }]));
    const plan = planPush(state, local, this.o.scan, this.o.config.maxFileBytes);
    const held = new Set([...plan.blocked.map((b) => b.key), ...plan.tooLarge, ...Object.keys(state.conflicts)]);
    const changed = [...new Set([...local.keys(), ...Object.keys(state.bases)])].filter((k) => (local.get(k)?.hash ?? null) !== (state.bases[k] ?? null));
    report.pending = changed.filter((k) => !held.has(k)).sort();
    report.conflicts = Object.keys(state.conflicts).sort();
    report.blocked = plan.blocked;
    report.tooLarge = plan.tooLarge;
    report.pulled = [...new Set(report.pulled)].sort();
    report.pushed = [...new Set(report.pushed)].sort();
    state.blocked = Object.fromEntries(plan.blocked.map((b) => [b.key, { hash: local.get(b.key)!.hash, rule: b.rule, line: b.line, findings: b.findings }]));
    if (!report.error) state.lastSyncAt = new Date(this.o.clock.now()).toISOString();
    await this.store.save(state);
    await this.store.collectGarbage(state);
  }

  /** See retry.ts: network errors, 429 and 5xx are retried with backoff and jitter, within the run's wait budget. */
  private withRetry<T extends { kind: string }>(call: () => Promise<T | ApiFailure>): Promise<T | ApiFailure> {
    const c = this.o.config;
    const policy = { baseMs: c.backoffBaseMs, capMs: c.backoffCapMs, maxRetries: c.networkRetries, budget: this.scope.budget };
    return withRetry({ ...policy, sleep: (ms) => this.pause(ms), random: this.random }, call);
  }

  /** A backoff wait that `close()` ends at once (the next call then answers `cancelled`). */
  private pause(ms: number): Promise<void> {
    const signal = this.closing.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      // The real timer is cleared too, so a closed engine leaves nothing keeping the process alive.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      if (this.o.sleep) this.o.sleep(ms).then(done, done);
      else timer = setTimeout(done, ms);
    });
  }

  private progress(done: number, total: number): void {
    // Every 100 files is enough for a progress bar and keeps a 5,000-file pull from flooding the UI.
    if (done !== 0 && done !== total && done % 100 !== 0) return;
    this.emit({ ...this.current, phase: 'syncing', progress: { done, total } });
  }

  private emit(status: TeamSyncStatus): void {
    this.current = status;
    this.o.onStatus?.(status);
  }
}

/** What the user can do about a file the server refused. */
function refusalAdvice(code: string): string {
  if (code === 'invalid_key') return 'rename the file; it syncs under its new name';
  if (code === 'team_memory_file_too_large') return 'shorten the file; it syncs once it is under the limit';
  return 'it is tried again at the next sync';
}
