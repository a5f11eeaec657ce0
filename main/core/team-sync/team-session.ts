import path from 'node:path';
import type { ConflictChoice, ConflictView, DeletedTeamFile, TeamStatus } from '../../../common/domain/team.js';
import type { IndexLineSkipped, VaultChange } from '../../../common/domain/vault.js';
import { AppFailure } from '../../../common/result.js';
import { ProjectPaths } from '../paths/index.js';
import { FileBadges } from './file-badges.js';
import { openTeamSync, type OpenedTeamSync } from './open-team-sync.js';
import { detectTeamRepo } from './repo-detect.js';
import type { SessionConfig, TeamSessionOptions } from './session-config.js';
import { SessionSignIn } from './session-sign-in.js';
import { settlesWithin } from './settles-within.js';
import { SyncScheduler } from './sync-scheduler.js';
import type { FileSyncState } from './sync-types.js';
import { toConflictView, toTeamStatus } from './team-status.js';

const toSlash = (p: string) => p.split(path.sep).join('/');

/**
 * One open project's team memory (docs/memory.md#team-sync): its sign-in (`session-sign-in.ts`), the
 * engine, its scheduler (pull at start, every 5 minutes, push 2 s after the last local change seen by
 * the vault watcher), the per-file badges (`file-badges.ts`), and the status pushed to the renderer as
 * `team:did-change-status`.
 */
export class TeamSession {
  readonly teamDirRel: string;
  private signIn: SessionSignIn | null = null;
  private scheduler: SyncScheduler | null = null;
  private offChanges: (() => void) | null = null;
  private readonly badges: FileBadges;
  private closed = false;

  private constructor(
    readonly project: string,
    readonly config: SessionConfig,
    private readonly teamDir: string,
    private readonly repo: string | null,
    private readonly repoProblem: string | null,
    private readonly opened: OpenedTeamSync | null,
    private readonly o: TeamSessionOptions,
  ) {
    this.teamDirRel = toSlash(path.relative(config.vaultRoot, teamDir));
    this.badges = new FileBadges(this.teamDirRel, opened?.engine ?? null, o.logger);
  }

  static async open(project: string, config: SessionConfig, o: TeamSessionOptions): Promise<TeamSession> {
    const paths = await ProjectPaths.resolve(config.vaultRoot, project);
    const detected = await detectTeamRepo(paths.gitRoot ?? paths.projectDir, config.teamRepo);
    let repo = detected.ok ? detected.repo : null;
    let repoProblem = detected.ok ? null : detected.error.message;
    if (!config.serverUrl) {
      const session = new TeamSession(project, config, paths.teamMemoryDir, repo, repoProblem, null, o);
      session.startSyncing();
      return session;
    }
    let session: TeamSession | null = null;
    const cfg = o.vault().memoryConfig().teamSync;
    const signIn = await SessionSignIn.load({
      serverUrl: config.serverUrl,
      credentials: o.credentials,
      clock: o.clock,
      logger: o.logger,
      refreshLeadMs: cfg.tokenRefreshLeadMs,
      timeoutMs: o.signInTimeoutMs ?? 5 * 60_000,
      changed: () => session?.emit(),
      signedIn: () => session?.startSyncing(),
      revoked: async () => session?.stopSyncing(),
    });
    let opened: OpenedTeamSync | null = null;
    if (repo) {
      // The resolved repository goes in as `teamRepo`, which the engine takes as given.
      // No repository is not a failure of the session: its status says how to set one.
      opened = await openTeamSync({
        vaultRoot: config.vaultRoot,
        projectDir: project,
        serverUrl: config.serverUrl,
        teamRepo: repo,
        getToken: () => signIn.auth.getAccessToken(),
        config: cfg,
        indexCaps: o.vault().memoryConfig().autoMemory,
        clock: o.clock,
        logger: o.logger,
        onStatus: () => session?.emit(),
      }).catch((error: unknown) => {
        if (!(error instanceof AppFailure && error.code === 'not_found')) throw error;
        [repo, repoProblem] = [null, error.message];
        return null;
      });
    }
    session = new TeamSession(project, config, opened?.teamDir ?? paths.teamMemoryDir, repo, repoProblem, opened, o);
    session.signIn = signIn;
    session.startSyncing();
    return session;
  }

  status(): TeamStatus {
    const base = toTeamStatus(
      {
        project: this.project,
        vaultRoot: this.config.vaultRoot,
        teamDir: this.teamDir,
        repo: this.repo,
        repoProblem: this.repoProblem,
        serverUrl: this.config.serverUrl,
        signedIn: this.signIn?.signedIn ?? false,
        account: this.signIn?.account ?? null,
        enabled: this.config.enabled,
      },
      this.opened ? this.opened.engine.status() : null,
    );
    const next = this.scheduler?.nextRunAt() ?? null;
    return {
      ...base,
      error: this.signIn?.error ?? base.error,
      signInUrl: this.signIn?.url ?? null,
      nextSyncAt: base.phase === 'disabled' || next === null ? null : new Date(next).toISOString(),
    };
  }

  emit(): void {
    if (!this.closed) this.o.statusChanged.fire(this.status());
  }

  /**
   * Starts the browser sign-in and resolves with the status as soon as the authorization page's URL is
   * known (the renderer opens it: the system browser in Electron, a new tab in host mode).
   */
  async startSignIn(): Promise<TeamStatus> {
    if (!this.signIn) throw new AppFailure('invalid_request', 'Set a team server URL in Settings before signing in.');
    await this.signIn.start();
    return this.status();
  }

  async signOut(): Promise<TeamStatus> {
    this.signIn?.cancel();
    await this.stopSyncing();
    await this.signIn?.signOut();
    this.badges.clear();
    this.emit();
    return this.status();
  }

  /** `confirmDeletions`: one run that pushes the deletions the mass-delete guard held back. */
  async syncNow(confirmDeletions = false): Promise<TeamStatus> {
    if (confirmDeletions) await this.requireEngine().sync({ confirmDeletions: true });
    else await this.requireScheduler().runNow().catch(() => undefined);
    return this.status();
  }

  async readConflict(key: string): Promise<ConflictView> {
    const engine = this.requireEngine();
    const account = this.signIn?.account ?? null;
    return toConflictView({ vaultRoot: this.config.vaultRoot, teamDir: this.teamDir, account }, await engine.readConflict(key));
  }

  /**
   * Records the user's choice, then pushes it right away (the scheduler's run, not a second one);
   * `indexSkipped` when Keep both's copy found MEMORY.md full.
   */
  async resolveConflict(key: string, keep: ConflictChoice, text: string | undefined): Promise<TeamStatus & { indexSkipped?: IndexLineSkipped }> {
    const engine = this.requireEngine();
    const account = this.signIn?.account ?? null;
    const { written, indexSkipped } = await engine.resolveConflict(key, { keep, text, ...(account ? { author: account } : {}) });
    await this.noticeInVault(written);
    await this.badges.refresh();
    if (this.scheduler) void this.scheduler.runNow().catch(() => undefined);
    const status = this.status();
    return { ...status, conflicts: status.conflicts.filter((k) => k !== key), ...(indexSkipped ? { indexSkipped } : {}) };
  }

  /** Undoes the last "keep both" of `key` (ConflictDesk.undoKeepBoth): the conflict is back in the inbox. */
  async undoKeepBoth(key: string): Promise<TeamStatus> {
    const engine = this.requireEngine();
    await this.noticeInVault(await engine.undoKeepBoth(key));
    await this.badges.refresh();
    if (this.scheduler) void this.scheduler.runNow().catch(() => undefined);
    const status = this.status();
    return { ...status, conflicts: [...new Set([...status.conflicts, key])].sort() };
  }

  /** Team memories deleted here or by a teammate that can still come back. */
  async listDeleted(): Promise<DeletedTeamFile[]> {
    const engine = this.requireEngine();
    return (await engine.listDeleted()).map((d) => ({ ...d, path: `${this.teamDirRel}/${d.key}` }));
  }

  /**
   * Puts a deleted team memory back, with its MEMORY.md line when it fits under the caps (`indexSkipped`
   * when it did not); the next push shares both again.
   */
  async restoreDeleted(key: string): Promise<{ deleted: DeletedTeamFile[]; indexSkipped?: IndexLineSkipped }> {
    const engine = this.requireEngine();
    const indexSkipped = await engine.restoreDeleted(key);
    await this.noticeInVault([key, 'MEMORY.md']);
    await this.badges.refresh();
    if (this.scheduler) void this.scheduler.runNow().catch(() => undefined);
    const deleted = await this.listDeleted();
    return indexSkipped ? { deleted, indexSkipped } : { deleted };
  }

  /**
   * Files sync wrote or removed (a pull, a resolved conflict, a restore) are in the vault's list at once,
   * not when the watcher reports them (it may be late under load, or miss a rename; `Vault.notice`).
   */
  private async noticeInVault(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.o.vault().files.notice(keys.map((key) => `${this.teamDirRel}/${key}`)).catch(() => undefined);
  }

  /** The badge of each team file of this project, keyed by vault-relative path. */
  badge(vaultPath: string): FileSyncState | undefined {
    return this.badges.forVaultPath(vaultPath);
  }

  /**
   * Ends the session (shutdown, a vault switch, changed settings). A local change not pushed yet (the
   * 2 s debounce still waiting, or an edit the watcher has not reported) gets one last push. Both the
   * wait for a run in progress and that push are bounded by `finalPushMs`, so quitting never hangs on a
   * dead network (a start-up pull may sit in backoff, or on a server that never answers); whatever does
   * not make it stays pending on disk and goes with the next start's sync.
   */
  async close(): Promise<void> {
    const wasSyncing = this.scheduler !== null;
    this.closed = true;
    this.signIn?.close();
    const stopped = await settlesWithin(this.stopSyncing(), this.finalPushMs);
    if (!stopped) this.o.logger.warn('team sync: a sync still waiting on the server was left behind at close; its changes stay pending');
    await this.badges.close();
    // A run left behind is still pushing; a second push beside it would only race it.
    if (stopped && wasSyncing && this.opened && this.signIn?.signedIn) await this.finalPush(this.opened.engine);
  }

  private get finalPushMs(): number {
    return this.o.finalPushMs ?? 5_000;
  }

  private async finalPush(engine: OpenedTeamSync['engine']): Promise<void> {
    const push = (async () => {
      const states = await engine.fileStates();
      if (![...states.values()].includes('pending')) return;
      const report = await engine.push();
      this.o.logger.info('team sync: final push at close', { pushed: report.pushed.length, pending: report.pending.length });
    })().catch((error: unknown) => this.o.logger.warn('team sync: the final push failed; changes stay pending', { message: (error as Error).message }));
    await settlesWithin(push, this.finalPushMs);
  }

  private startSyncing(): void {
    if (this.closed || this.scheduler || !this.opened || !this.signIn?.signedIn || !this.config.enabled) return;
    const { engine } = this.opened;
    const signIn = this.signIn;
    const cfg = this.o.vault().memoryConfig().teamSync;
    this.scheduler = new SyncScheduler({
      sync: async () => {
        let report = await engine.sync();
        if (report.error?.code === 'auth') {
          // A 401 before the token's expiry: revoked elsewhere, or rotated by another process. A forced
          // refresh decides; signed out means the user signs in again; nothing local is touched.
          const who = await signIn.checkAccount();
          if (who === 'user' && !this.closed) report = await engine.sync();
        }
        await this.noticeInVault([...report.pulled, ...report.merged]);
        await this.badges.refresh();
        this.emit();
        return report;
      },
      pullIntervalMs: cfg.pullIntervalMs,
      pushDebounceMs: cfg.pushDebounceMs,
      logger: this.o.logger,
      // The status after a run says when the next one starts ("Offline — next try at 14:05").
      scheduled: () => this.emit(),
      now: () => this.o.clock.now(),
    });
    const vault = this.o.vault();
    this.offChanges = vault.files.onChanges((changes) => this.onVaultChanges(changes));
    void this.scheduler.start().catch(() => undefined);
  }

  private async stopSyncing(): Promise<void> {
    this.offChanges?.();
    this.offChanges = null;
    const scheduler = this.scheduler;
    this.scheduler = null;
    await scheduler?.stop();
  }

  /**
   * A change under the team folder schedules a sync only when it left a file out of step with its base
   * (pending, or now blocked by a secret or too large, which the run reports): the files a pull just
   * wrote (or deleted) equal their base, so the watcher's echo of them starts no sync of its own.
   */
  private onVaultChanges(changes: VaultChange[]): void {
    const keys = this.badges.keysOf(changes);
    if (keys.length === 0) return;
    // A badge turns "pending" at once; the renderer re-reads the list on the status event.
    void this.badges.refresh().then((changed) => {
      if (keys.some((key) => this.badges.state(key) !== 'synced')) this.scheduler?.notifyLocalChange();
      if (changed) this.emit();
    });
  }

  private requireEngine() {
    if (!this.opened) throw new AppFailure('unsupported', this.repoProblem ?? 'Set a team server URL in Settings first.');
    return this.opened.engine;
  }

  private requireScheduler(): SyncScheduler {
    this.requireEngine();
    if (!this.config.enabled) throw new AppFailure('unsupported', 'Team memory sync is turned off for this project.');
    if (!this.signIn?.signedIn || !this.scheduler) throw new AppFailure('permission_denied', 'Sign in to the team server first.');
    return this.scheduler;
  }
}
