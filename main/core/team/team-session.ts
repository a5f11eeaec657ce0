import path from 'node:path';
import type { ConflictChoice, ConflictView, DeletedTeamFile, TeamStatus } from '../../../common/domain/team.js';
import type { VaultChange } from '../../../common/domain/vault.js';
import { AppFailure, err } from '../../../common/result.js';
import type { EventHub } from '../events.js';
import { ProjectPaths } from '../paths/index.js';
import type { Clock, CredentialStore, Logger } from '../ports.js';
import type { VaultServices } from '../vault-services.js';
import { TeamSyncFailure } from '../team-sync/index.js';
import { TeamAuth } from '../team-sync/index.js';
import { openTeamSync, type OpenedTeamSync } from '../team-sync/index.js';
import { SyncScheduler } from '../team-sync/index.js';
import type { FileSyncState } from '../team-sync/index.js';
import { toConflictView, toTeamStatus } from '../team-sync/index.js';
import { detectTeamRepo } from '../team-sync/index.js';

export interface TeamServiceOptions {
  /** The current vault (rebuilt on a vault switch). */
  vault: () => VaultServices;
  events: EventHub;
  credentials: CredentialStore;
  clock: Clock;
  logger: Logger;
  /** Test seam for the OAuth wait; the app uses 5 minutes. */
  signInTimeoutMs?: number;
  /** How long closing waits for the last push of pending changes; 5 s. */
  finalPushMs?: number;
  /** Open the sessions of the projects whose team sync is set up at start (the app; not the CLI). */
  openAtStart?: boolean;
}

/** What a session was built from; a change of any field (settings, vault) rebuilds it. */
export interface SessionConfig {
  vaultRoot: string;
  serverUrl: string | null;
  teamRepo: string | null;
  enabled: boolean;
}

export const sameConfig = (a: SessionConfig, b: SessionConfig) =>
  a.vaultRoot === b.vaultRoot && a.serverUrl === b.serverUrl && a.teamRepo === b.teamRepo && a.enabled === b.enabled;

const toSlash = (p: string) => p.split(path.sep).join('/');

/** Only a web page may be handed to the browser (a metadata document could name any scheme). */
function webUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/**
 * One open project's team memory (docs/memory.md#team-sync): sign-in, the engine, its scheduler (pull at start, every
 * 5 minutes, push 2 s after the last local change seen by the vault watcher), the per-file badges, and
 * the status pushed to the renderer as `team:did-change-status`.
 */
export class TeamSession {
  readonly teamDirRel: string;
  private auth: TeamAuth | null = null;
  private scheduler: SyncScheduler | null = null;
  private offChanges: (() => void) | null = null;
  private signedIn = false;
  /** The user name the server knows this sign-in as (`GET /api/me`), once it has answered. */
  private account: string | null = null;
  private signInUrl: string | null = null;
  private signInAbort: AbortController | null = null;
  /** A sign-in failure, shown until the next attempt or sync. */
  private authError: string | null = null;
  private states = new Map<string, FileSyncState>();
  private statesRun: Promise<void> | null = null;
  private statesAgain = false;
  private closed = false;

  private constructor(
    readonly project: string,
    readonly config: SessionConfig,
    private readonly teamDir: string,
    private readonly repo: string | null,
    private readonly repoProblem: string | null,
    private readonly opened: OpenedTeamSync | null,
    private readonly o: TeamServiceOptions,
  ) {
    this.teamDirRel = toSlash(path.relative(config.vaultRoot, teamDir));
  }

  static async open(project: string, config: SessionConfig, o: TeamServiceOptions): Promise<TeamSession> {
    const paths = await ProjectPaths.resolve(config.vaultRoot, project);
    const detected = await detectTeamRepo(paths.gitRoot ?? paths.projectDir, config.teamRepo);
    let session: TeamSession | null = null;
    let opened: OpenedTeamSync | null = null;
    let repo = detected.ok ? detected.repo : null;
    let repoProblem = detected.ok ? null : detected.error.message;
    if (config.serverUrl) {
      const auth = new TeamAuth({
        serverUrl: config.serverUrl,
        credentials: o.credentials,
        clock: o.clock,
        logger: o.logger,
        openBrowser: (url) => session?.offerSignInUrl(url),
        refreshLeadMs: o.vault().memoryConfig().teamSync.tokenRefreshLeadMs,
      });
      if (repo) {
        // The resolved repository goes in as `teamRepo`, which the engine takes as given.
        const result = await openTeamSync({
          vaultRoot: config.vaultRoot,
          projectDir: project,
          serverUrl: config.serverUrl,
          teamRepo: repo,
          getToken: () => auth.getAccessToken(),
          config: o.vault().memoryConfig().teamSync,
          clock: o.clock,
          logger: o.logger,
          onStatus: () => session?.emit(),
        });
        if (result.ok) opened = result.value;
        else [repo, repoProblem] = [null, result.error.message];
      }
      session = new TeamSession(project, config, opened?.teamDir ?? paths.teamMemoryDir, repo, repoProblem, opened, o);
      session.auth = auth;
      session.signedIn = await auth.isSignedIn();
      // A stored sign-in may have been revoked elsewhere: the server says so (and who it is) at once.
      if (session.signedIn) void session.checkAccount();
    } else {
      session = new TeamSession(project, config, paths.teamMemoryDir, repo, repoProblem, null, o);
    }
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
        signedIn: this.signedIn,
        account: this.signedIn ? this.account : null,
        enabled: this.config.enabled,
      },
      this.opened ? this.opened.engine.status() : null,
    );
    return { ...base, error: this.authError ?? base.error, signInUrl: this.signInUrl };
  }

  emit(): void {
    if (!this.closed) this.o.events.emit('team:did-change-status', this.status());
  }

  /**
   * Starts the browser sign-in and resolves with the authorization page's URL as soon as it is known
   * (the renderer opens it: the system browser in Electron, a new tab in host mode). The sign-in itself
   * finishes in the background; its outcome arrives as a status event.
   */
  async signIn(): Promise<TeamStatus> {
    if (!this.auth || !this.config.serverUrl) {
      throw new AppFailure('invalid_request', 'Set a team server URL in Settings before signing in.');
    }
    if (this.signedIn) return this.status();
    this.signInAbort?.abort();
    const abort = new AbortController();
    this.signInAbort = abort;
    this.signInUrl = null;
    this.authError = null;
    let announce: (url: string | null) => void = () => undefined;
    const announced = new Promise<string | null>((resolve) => (announce = resolve));
    this.pendingAnnounce = announce;
    const flow = this.auth
      .signIn({ timeoutMs: this.o.signInTimeoutMs ?? 5 * 60_000, signal: abort.signal })
      .catch((error: unknown) => err('io_error', (error as Error).message))
      .then((result) => {
        if (this.signInAbort !== abort || this.closed) return;
        this.signInAbort = null;
        this.signInUrl = null;
        if (result.ok) {
          this.signedIn = true;
          this.startSyncing();
          void this.checkAccount();
        } else {
          this.authError = `Sign-in failed: ${result.error.message}`;
        }
        this.emit();
      });
    const first = await Promise.race([announced, flow.then(() => null)]);
    this.pendingAnnounce = null;
    if (first === null && !this.signedIn) {
      throw new AppFailure('io_error', this.authError ?? 'The sign-in could not start.');
    }
    return this.status();
  }

  private pendingAnnounce: ((url: string | null) => void) | null = null;

  private offerSignInUrl(url: string): void {
    const safe = webUrl(url);
    if (!safe) {
      this.o.logger.warn('the team server named an authorization page that is not a web page; sign-in cancelled');
      this.signInAbort?.abort();
      return;
    }
    this.signInUrl = safe;
    this.pendingAnnounce?.(safe);
    this.emit();
  }

  async signOut(): Promise<TeamStatus> {
    this.signInAbort?.abort();
    this.signInAbort = null;
    this.signInUrl = null;
    await this.stopSyncing();
    await this.auth?.signOut();
    this.signedIn = false;
    this.account = null;
    this.authError = null;
    this.states = new Map();
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
    try {
      return toConflictView({ vaultRoot: this.config.vaultRoot, teamDir: this.teamDir, account: this.account }, await engine.readConflict(key));
    } catch (error) {
      throw asAppFailure(error);
    }
  }

  /** Records the user's choice, then pushes it right away (the scheduler's run, not a second one). */
  async resolveConflict(key: string, keep: ConflictChoice, text: string | undefined): Promise<TeamStatus> {
    const engine = this.requireEngine();
    try {
      await engine.resolveConflict(key, { keep, text, ...(this.account ? { author: this.account } : {}) });
    } catch (error) {
      throw asAppFailure(error);
    }
    await this.refreshStates();
    if (this.scheduler) void this.scheduler.runNow().catch(() => undefined);
    const status = this.status();
    return { ...status, conflicts: status.conflicts.filter((k) => k !== key) };
  }

  /** Team memories deleted here or by a teammate that can still come back. */
  async listDeleted(): Promise<DeletedTeamFile[]> {
    const engine = this.requireEngine();
    return (await engine.listDeleted()).map((d) => ({ ...d, path: `${this.teamDirRel}/${d.key}` }));
  }

  /** Puts a deleted team memory back; the next push shares it again. */
  async restoreDeleted(key: string): Promise<DeletedTeamFile[]> {
    const engine = this.requireEngine();
    try {
      await engine.restoreDeleted(key);
    } catch (error) {
      throw asAppFailure(error);
    }
    await this.refreshStates();
    if (this.scheduler) void this.scheduler.runNow().catch(() => undefined);
    return this.listDeleted();
  }

  /** The badge of each team file of this project, keyed by vault-relative path. */
  badge(vaultPath: string): FileSyncState | undefined {
    if (!vaultPath.startsWith(`${this.teamDirRel}/`)) return undefined;
    return this.states.get(vaultPath.slice(this.teamDirRel.length + 1));
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
    this.signInAbort?.abort();
    this.signInAbort = null;
    const stopped = await settlesWithin(this.stopSyncing(), this.finalPushMs);
    if (!stopped) this.o.logger.warn('team sync: a sync still waiting on the server was left behind at close; its changes stay pending');
    await this.statesRun?.catch(() => undefined);
    // A run left behind is still pushing; a second push beside it would only race it.
    if (stopped && wasSyncing && this.opened && this.signedIn) await this.finalPush(this.opened.engine);
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

  /** Asks the server who this sign-in is; a sign-in revoked elsewhere ends here, nothing local touched. */
  private async checkAccount(): Promise<'user' | 'signed-out' | 'unknown'> {
    if (!this.auth) return 'unknown';
    const who = await this.auth.whoAmI().catch(() => ({ kind: 'unknown' as const }));
    if (this.closed) return who.kind;
    if (who.kind === 'user' && who.user !== this.account) {
      this.account = who.user;
      this.emit();
    } else if (who.kind === 'signed-out' && this.signedIn) {
      this.o.logger.info('team sync: the stored sign-in is no longer valid; sign in again');
      this.signedIn = false;
      this.account = null;
      this.authError = 'The team server no longer accepts this sign-in (signed out or revoked elsewhere). Sign in again.';
      await this.stopSyncing();
      this.emit();
    }
    return who.kind;
  }

  private startSyncing(): void {
    if (this.closed || this.scheduler || !this.opened || !this.signedIn || !this.config.enabled) return;
    const { engine } = this.opened;
    const cfg = this.o.vault().memoryConfig().teamSync;
    this.scheduler = new SyncScheduler({
      sync: async () => {
        let report = await engine.sync();
        if (report.error?.code === 'auth') {
          // A 401 before the token's expiry: revoked elsewhere, or rotated by another process. A forced
          // refresh decides; signed out means the user signs in again; nothing local is touched.
          const who = await this.checkAccount();
          if (who === 'user' && !this.closed) report = await engine.sync();
        }
        // The files the pull wrote or removed are in the vault's list at once, not when the watcher reports them.
        const written = [...report.pulled, ...report.merged];
        if (written.length > 0) await this.o.vault().files.notice(written.map((key) => `${this.teamDirRel}/${key}`)).catch(() => undefined);
        await this.refreshStates();
        this.emit();
        return report;
      },
      pullIntervalMs: cfg.pullIntervalMs,
      pushDebounceMs: cfg.pushDebounceMs,
      logger: this.o.logger,
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
    const prefix = `${this.teamDirRel}/`;
    const keys = changes
      .flatMap((c) => [c.path, c.from ?? ''])
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length));
    if (keys.length === 0) return;
    // A badge turns "pending" at once; the renderer re-reads the list on the status event.
    void this.refreshStates().then((changed) => {
      if (keys.some((key) => (this.states.get(key) ?? 'synced') !== 'synced')) this.scheduler?.notifyLocalChange();
      if (changed) this.emit();
    });
  }

  /** Recomputes the badges; coalesces calls; true when any badge changed. */
  private async refreshStates(): Promise<boolean> {
    if (!this.opened) return false;
    const engine = this.opened.engine;
    const before = this.states;
    if (this.statesRun) {
      this.statesAgain = true;
      await this.statesRun;
    } else {
      this.statesRun = (async () => {
        do {
          this.statesAgain = false;
          try {
            this.states = await engine.fileStates();
          } catch (error) {
            this.o.logger.warn('team sync: file states could not be read', { message: (error as Error).message });
          }
        } while (this.statesAgain && !this.closed);
      })().finally(() => {
        this.statesRun = null;
      });
      await this.statesRun;
    }
    if (before.size !== this.states.size) return true;
    for (const [key, state] of this.states) if (before.get(key) !== state) return true;
    return false;
  }

  private requireEngine() {
    if (!this.opened) throw new AppFailure('unsupported', this.repoProblem ?? 'Set a team server URL in Settings first.');
    return this.opened.engine;
  }

  private requireScheduler(): SyncScheduler {
    this.requireEngine();
    if (!this.config.enabled) throw new AppFailure('unsupported', 'Team memory sync is turned off for this project.');
    if (!this.signedIn || !this.scheduler) throw new AppFailure('permission_denied', 'Sign in to the team server first.');
    return this.scheduler;
  }
}

/** True when `work` settles within `ms`; false when the wait gave up (the work goes on). */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = work.then(
    () => true,
    () => true,
  );
  const gaveUp = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([settled, gaveUp]);
  clearTimeout(timer);
  return result;
}

function asAppFailure(error: unknown): Error {
  if (error instanceof TeamSyncFailure) return new AppFailure(error.code, error.message);
  return error as Error;
}
