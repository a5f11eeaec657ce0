import type { VaultChange } from '../../../common/domain/vault.js';
import type { Logger } from '../ports.js';
import type { FileSyncState } from './sync-types.js';
import type { TeamSyncEngine } from './team-sync-engine.js';

/**
 * The sync badge of each file of one team folder (docs/memory.md#team-memory **Beyond**), keyed by the
 * file's key in the folder and read back by vault-relative path. Reads of the engine's states coalesce:
 * a refresh asked for during one runs once more after it.
 */
export class FileBadges {
  private states = new Map<string, FileSyncState>();
  private run: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    /** The team folder, vault-relative with forward slashes. */
    private readonly teamDirRel: string,
    private readonly engine: TeamSyncEngine | null,
    private readonly logger: Logger,
  ) {}

  /** The badge of a vault-relative path; undefined outside the team folder or for an unknown file. */
  forVaultPath(vaultPath: string): FileSyncState | undefined {
    if (!vaultPath.startsWith(`${this.teamDirRel}/`)) return undefined;
    return this.states.get(vaultPath.slice(this.teamDirRel.length + 1));
  }

  /** The keys in the team folder that a batch of vault changes touched (a rename's old path too). */
  keysOf(changes: VaultChange[]): string[] {
    const prefix = `${this.teamDirRel}/`;
    return changes
      .flatMap((c) => [c.path, c.from ?? ''])
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length));
  }

  /** A file with no badge yet counts as synced (the watcher saw it before the engine did). */
  state(key: string): FileSyncState {
    return this.states.get(key) ?? 'synced';
  }

  clear(): void {
    this.states = new Map();
  }

  /** Recomputes the badges; true when any badge changed. */
  async refresh(): Promise<boolean> {
    if (!this.engine) return false;
    const engine = this.engine;
    const before = this.states;
    if (this.run) {
      this.again = true;
      await this.run;
    } else {
      this.run = (async () => {
        do {
          this.again = false;
          try {
            this.states = await engine.fileStates();
          } catch (error) {
            this.logger.warn('team sync: file states could not be read', { message: (error as Error).message });
          }
        } while (this.again && !this.closed);
      })().finally(() => {
        this.run = null;
      });
      await this.run;
    }
    if (before.size !== this.states.size) return true;
    for (const [key, state] of this.states) if (before.get(key) !== state) return true;
    return false;
  }

  /** Stops asking again and waits for a read in progress. */
  async close(): Promise<void> {
    this.closed = true;
    await this.run?.catch(() => undefined);
  }
}
