import type { ConflictChoice, ConflictView, DeletedTeamFile, TeamStatus } from '../../../common/domain/team.js';
import type { VaultFileMeta } from '../../../common/domain/vault.js';
import { AppFailure } from '../../../common/result.js';
import { sameConfig, TeamSession, type SessionConfig, type TeamServiceOptions } from './team-session.js';

export type { TeamServiceOptions } from './team-session.js';

/**
 * The team memory of every project the renderer has asked about, in the current vault. Sessions open
 * lazily (`team:status` when a project is selected), rebuild when their settings change, and close on
 * a vault switch and at shutdown.
 */
export class TeamService {
  private readonly sessions = new Map<string, Promise<TeamSession>>();
  private readonly offEvents: () => void;
  private closed = false;

  constructor(private readonly o: TeamServiceOptions) {
    this.offEvents = o.events.subscribe((channel) => {
      if (channel === 'settings:did-change' || channel === 'vault:did-change-root') void this.reconcile();
    });
  }

  async status(project: string): Promise<TeamStatus> {
    return (await this.session(project)).status();
  }

  async signIn(project: string): Promise<TeamStatus> {
    return (await this.session(project)).signIn();
  }

  async signOut(project: string): Promise<TeamStatus> {
    return (await this.session(project)).signOut();
  }

  async syncNow(project: string): Promise<TeamStatus> {
    return (await this.session(project)).syncNow();
  }

  async readConflict(project: string, key: string): Promise<ConflictView> {
    return (await this.session(project)).readConflict(key);
  }

  async resolveConflict(project: string, key: string, keep: ConflictChoice, text?: string): Promise<TeamStatus> {
    if (keep === 'merged' && text === undefined) throw new AppFailure('invalid_request', 'A merged resolution needs its text.');
    return (await this.session(project)).resolveConflict(key, keep, text);
  }

  async listDeleted(project: string): Promise<DeletedTeamFile[]> {
    return (await this.session(project)).listDeleted();
  }

  async restoreDeleted(project: string, key: string): Promise<DeletedTeamFile[]> {
    return (await this.session(project)).restoreDeleted(key);
  }

  /** The vault list with each team file's sync badge (SPEC §5 **Beyond**); other files unchanged. */
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
    this.offEvents();
    await Promise.all([...this.sessions.values()].map(async (s) => (await s.catch(() => null))?.close()));
    this.sessions.clear();
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
      pending = TeamSession.open(project, config, this.o);
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
