import type { ConsolidationChangeset } from '../../../common/domain/consolidation.js';
import type { IndexLineSkipped } from '../../../common/domain/vault.js';
import { scanMemoryFiles } from '../auto-memory/index.js';
import { ensureMemoryDir } from '../auto-memory/index.js';
import { createClients, projectSwitches, type AgentEnvironment } from '../chat/index.js';
import { ProjectPaths } from '../paths/index.js';
import type { Clock, Logger } from '../ports.js';
import { vaultSecretScan } from '../secrets/index.js';
import type { Vault } from '../vault/index.js';
import { ChangesetStore } from './changeset-store.js';
import { createConsolidationFork } from './consolidation-fork.js';
import { Consolidator, type ConsolidationOutcome } from './consolidator.js';

/** How often the background check may look at one project (Claude Code's scan throttle: 10 minutes). */
const CHECK_EVERY_MS = 10 * 60_000;

/**
 * The consolidation of every opened project of one vault: a Consolidator per project, built on demand
 * with the conversation agent's model settings; the background check after conversations change; and
 * the Inbox's reads and decisions.
 */
export class ConsolidationService {
  private readonly store: ChangesetStore;
  private readonly lastCheck = new Map<string, number>();
  private readonly running = new Map<string, Promise<ConsolidationOutcome>>();

  constructor(
    private readonly o: {
      env: AgentEnvironment;
      vault: Vault;
      clock: Clock;
      logger: Logger;
      /** Told when a project's changeset changed (a pass proposed one, or it was resolved). */
      onChange: (project: string, changeset: ConsolidationChangeset | null) => void;
    },
  ) {
    this.store = new ChangesetStore(o.env.vaultRoot);
  }

  async consolidator(project: string): Promise<Consolidator> {
    const { env } = this.o;
    const paths = await ProjectPaths.resolve(env.vaultRoot, project);
    const memoryDir = await ensureMemoryDir(paths.memoryDir);
    const switches = () => projectSwitches(env.settings(), project);
    return new Consolidator({
      vault: this.o.vault,
      memoryDir,
      projectDir: paths.projectDir,
      transcriptsDirs: [paths.transcriptsDir],
      config: env.config,
      // Paused memory runs no background pass; "Tidy memory now" is the user's own request and still runs.
      switches: () => ({ consolidation: switches().consolidation && switches().autoMemory && !switches().memoryPaused, autoApply: switches().consolidationAutoApply }),
      clock: this.o.clock,
      fork: createConsolidationFork({ llm: createClients(env).llm, projectDir: paths.projectDir, memoryDirs: [memoryDir] }),
      store: this.store,
      scan: vaultSecretScan(env.vaultRoot),
    });
  }

  /** "Tidy memory now", or the background check (`gated`); one at a time per project. */
  run(project: string, gated: boolean): Promise<ConsolidationOutcome> {
    const inFlight = this.running.get(project);
    if (inFlight) return inFlight;
    const run = (async () => {
      const c = await this.consolidator(project);
      const outcome = gated ? await c.maybeRun() : await c.runNow();
      if (outcome.kind === 'proposed') this.o.onChange(project, outcome.changeset);
      if (outcome.kind === 'failed') this.o.logger.warn('memory consolidation failed', { project, error: outcome.message });
      return outcome;
    })().finally(() => this.running.delete(project));
    this.running.set(project, run);
    return run;
  }

  /**
   * After a conversation changed: at most one gate check per project every 10 minutes, and none while
   * the folder holds fewer than two memories (nothing to merge or contradict).
   */
  nudge(project: string): void {
    const now = this.o.clock.now();
    if (now - (this.lastCheck.get(project) ?? -Infinity) < CHECK_EVERY_MS) return;
    this.lastCheck.set(project, now);
    void this.worthChecking(project)
      .then((worth) => (worth ? this.run(project, true) : null))
      .catch((error: unknown) => this.o.logger.warn('memory consolidation check failed', { project, error: (error as Error).message }));
  }

  private async worthChecking(project: string): Promise<boolean> {
    const paths = await ProjectPaths.resolve(this.o.env.vaultRoot, project);
    return (await scanMemoryFiles(paths.memoryDir, { maxBytes: 0 })).length >= 2;
  }

  async pending(project: string): Promise<ConsolidationChangeset | null> {
    return (await this.consolidator(project)).pending();
  }

  async resolve(project: string, id: string, decision: { accept: string[]; reject: string[] }): Promise<ConsolidationChangeset> {
    const consolidator = await this.consolidator(project);
    try {
      const changeset = await consolidator.resolve(id, decision);
      this.o.onChange(project, changeset);
      return changeset;
    } catch (error) {
      // An answer such as "3 changes applied. Changed since…" comes as an error, yet those 3 landed: the
      // Inbox is told the changeset as it now is, or it would still offer them.
      this.o.onChange(project, await consolidator.pending());
      throw error;
    }
  }

  /** The changeset after the Undo, with the MEMORY.md line a full index left out (`indexSkipped`), if one was. */
  async undo(project: string, id: string, itemId: string): Promise<ConsolidationChangeset & { indexSkipped?: IndexLineSkipped }> {
    const undone = await (await this.consolidator(project)).undo(id, itemId);
    const { indexSkipped: _told, ...changeset } = undone;
    this.o.onChange(project, changeset);
    return undone;
  }
}
