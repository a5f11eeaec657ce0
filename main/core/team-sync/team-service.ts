import { Emitter } from '../../../common/async/event.js';
import type { ConflictChoice, ConflictView, DeletedTeamFile, TeamStatus } from '../../../common/domain/team.js';
import type { VaultFileMeta } from '../../../common/domain/vault.js';
import { AppFailure } from '../../../common/result.js';
import { TeamAuth } from './oauth-client.js';
import { sameConfig, type SessionConfig, type TeamServiceOptions } from './session-config.js';
import { TeamSession } from './team-session.js';

export type { TeamServiceOptions } from './session-config.js';

/**
 * The team memory of the projects of the current vault. With `openAtStart` (the app, not one-shot CLI
 * commands) every registered project whose team sync is set up gets its session when the services start
 * and after a vault switch; any other project's opens when the renderer asks (`team:status` when it is
 * selected). Sessions rebuild when their settings change, and close on a vault switch and at shutdown.
 */
export class TeamService {
  private readonly sessions = new Map<string, Promise<TeamSession>>();
  private readonly offEvents: (() => void)[];
  private readonly didChangeStatus = new Emitter<TeamStatus>();
  /** A project's team status changed (a sync ran, a sign-in started or ended, a conflict came or went). */
  readonly onDidChangeStatus = this.didChangeStatus.event;
  private closed = false;

  constructor(private readonly o: TeamServiceOptions) {
    this.offEvents = [
      o.onDidChangeSettings(() => void this.reconcile()),
      o.onDidSwitchVault(() => void this.reconcile().then(() => (o.openAtStart ? this.openConfigured() : undefined))),
    ];
    if (o.openAtStart) void this.openConfigured();
  }

  /**
   * docs/memory.md#team-sync, "pull at start": opens the session of each registered project whose team sync is set up
   * (a server URL, sync on, a stored sign-in for that server), so it pulls now and every 5 minutes
   * without waiting to be selected. In the background, after the vault's first scan, one project at a
   * time; a server that is down leaves those sessions reporting offline, never fails the start.
   */
  async openConfigured(): Promise<void> {
    const vault = this.o.vault();
    await vault.ready;
    const signedIn = new Map<string, Promise<boolean>>();
    for (const { path: project } of vault.projects.list()) {
      if (this.closed || this.o.vault() !== vault) return;
      const config = this.configFor(project);
      const serverUrl = config.serverUrl;
      if (!serverUrl || !config.enabled || this.sessions.has(project)) continue;
      if (!signedIn.has(serverUrl)) signedIn.set(serverUrl, this.hasStoredSignIn(serverUrl));
      if (!(await signedIn.get(serverUrl)) || this.closed || this.o.vault() !== vault) continue;
      try {
        await this.session(project);
      } catch (error) {
        this.o.logger.warn('team sync: a project could not be opened at start', { message: (error as Error).message });
      }
    }
  }

  async status(project: string): Promise<TeamStatus> {
    return (await this.session(project)).status();
  }

  async signIn(project: string): Promise<TeamStatus> {
    return (await this.session(project)).startSignIn();
  }

  async signOut(project: string): Promise<TeamStatus> {
    return (await this.session(project)).signOut();
  }

  async syncNow(project: string, confirmDeletions = false): Promise<TeamStatus> {
    return (await this.session(project)).syncNow(confirmDeletions);
  }

  async readConflict(project: string, key: string): Promise<ConflictView> {
    return (await this.session(project)).readConflict(key);
  }

  async resolveConflict(project: string, key: string, keep: ConflictChoice, text?: string): ReturnType<TeamSession['resolveConflict']> {
    if (keep === 'merged' && text === undefined) throw new AppFailure('invalid_request', 'A merged resolution needs its text.');
    return (await this.session(project)).resolveConflict(key, keep, text);
  }

  async undoKeepBoth(project: string, key: string): Promise<TeamStatus> {
    return (await this.session(project)).undoKeepBoth(key);
  }

  async listDeleted(project: string): Promise<DeletedTeamFile[]> {
    return (await this.session(project)).listDeleted();
  }

  async restoreDeleted(project: string, key: string): ReturnType<TeamSession['restoreDeleted']> {
    return (await this.session(project)).restoreDeleted(key);
  }

  /** The vault list with each team file's sync badge (docs/memory.md#team-memory **Beyond**); other files unchanged. */
  async withBadges(files: VaultFileMeta[]): Promise<VaultFileMeta[]> {
    const root = this.o.vault().root;
    const open: TeamSession[] = [];
    for (const pending of this.sessions.values()) {
      const session = await pending.catch(() => null);
      if (session && session.config.vaultRoot === root) open.push(session);
    }
    if (open.length === 0) return files;
    return files.map((meta) => {
      if (meta.scope !== 'team-memory') return meta;
      for (const session of open) {
        const syncState = session.badge(meta.path);
        if (syncState) return { ...meta, syncState };
      }
      return meta;
    });
  }

  /** Closes every session (shutdown); the service answers no more calls. */
  async close(): Promise<void> {
    this.closed = true;
    for (const off of this.offEvents) off();
    await Promise.all([...this.sessions.values()].map(async (s) => (await s.catch(() => null))?.close()));
    this.sessions.clear();
  }

  /** Tokens for `serverUrl` in the credential store; read only, nothing asked of the server. */
  private async hasStoredSignIn(serverUrl: string): Promise<boolean> {
    const { credentials, clock, logger } = this.o;
    try {
      return await new TeamAuth({ serverUrl, credentials, clock, logger, openBrowser: () => undefined }).isSignedIn();
    } catch (error) {
      logger.warn('team sync: the credential store could not be read', { message: (error as Error).message });
      return false;
    }
  }

  private configFor(project: string): SessionConfig {
    const vault = this.o.vault();
    const settings = vault.settings.get();
    const own = settings.projects[project];
    return {
      vaultRoot: vault.root,
      serverUrl: own?.teamServerUrl ?? settings.teamServerUrl ?? null,
      teamRepo: own?.teamRepo ?? null,
      enabled: own?.teamSync ?? true,
    };
  }

  private async session(project: string): Promise<TeamSession> {
    if (this.closed) throw new AppFailure('unsupported', 'Strata is shutting down.');
    const config = this.configFor(project);
    const existing = this.sessions.get(project);
    if (existing) {
      const session = await existing.catch(() => null);
      if (session && sameConfig(session.config, config)) return session;
      if (this.sessions.get(project) === existing) this.sessions.delete(project);
      await session?.close();
    }
    let pending = this.sessions.get(project);
    if (!pending) {
      pending = TeamSession.open(project, config, { ...this.o, statusChanged: this.didChangeStatus });
      this.sessions.set(project, pending);
      pending.catch(() => {
        if (this.sessions.get(project) === pending) this.sessions.delete(project);
      });
    }
    return pending;
  }

  /** Settings or the vault changed: close the sessions of another vault, rebuild those whose inputs differ. */
  private async reconcile(): Promise<void> {
    const root = this.o.vault().root;
    for (const [project, existing] of [...this.sessions]) {
      const session = await existing.catch(() => null);
      if (!session || this.closed || sameConfig(session.config, this.configFor(project))) continue;
      if (session.config.vaultRoot !== root) {
        if (this.sessions.get(project) === existing) this.sessions.delete(project);
        await session.close();
        continue;
      }
      try {
        (await this.session(project)).emit();
      } catch (error) {
        this.o.logger.warn('team sync: a project could not be reopened', { message: (error as Error).message });
      }
    }
  }
}
