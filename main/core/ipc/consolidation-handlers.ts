import { AppFailure } from '../../../common/result.js';
import { ConsolidationService } from '../consolidation/index.js';
import type { Services, VaultServices } from '../services.js';
import type { Handlers } from './dispatcher.js';

type ConsolidationChannel = 'memory:consolidation-get' | 'memory:consolidation-run' | 'memory:consolidation-resolve' | 'memory:consolidation-undo';

/**
 * Consolidation you approve (docs/memory-upkeep.md): the Inbox's channels, and the background check,
 * which looks at a project after its conversations change (at most every 10 minutes; the gates decide).
 */
export function createConsolidationHandlers(services: Services): Pick<Handlers, ConsolidationChannel> {
  const byVault = new WeakMap<VaultServices, ConsolidationService>();
  const serviceOf = (vault: VaultServices): ConsolidationService => {
    let service = byVault.get(vault);
    if (!service) {
      service = new ConsolidationService({
        env: {
          vaultRoot: vault.root,
          settings: () => vault.settings.get(),
          config: vault.memoryConfig,
          credentials: services.credentials,
          env: services.config.env,
          environmentFirst: services.config.shell === 'cli',
        },
        vault: vault.files,
        clock: services.config.clock,
        logger: services.config.logger,
        onChange: (project, changeset) => services.events.emit('memory:did-change-consolidation', { project, changeset }),
      });
      byVault.set(vault, service);
    }
    return service;
  };
  const current = async () => {
    const vault = services.vault();
    await vault.ready;
    return serviceOf(vault);
  };
  // A conversation moved on (a turn ended, one was renamed or deleted): maybe time to tidy that project's memory.
  services.onDidChangeSessions(({ project }) => void current().then((s) => s.nudge(project)));
  return {
    'memory:consolidation-get': async ({ project }) => (await current()).pending(project),
    'memory:consolidation-run': async ({ project }) => {
      const service = await current();
      const outcome = await service.run(project, false);
      if (outcome.kind === 'failed') throw new AppFailure('io_error', `The tidy-up could not run: ${outcome.message}`);
      return { outcome: outcome.kind === 'skipped' ? outcome.reason : outcome.kind, changeset: await service.pending(project) };
    },
    'memory:consolidation-resolve': async ({ project, id, accept, reject }) => (await current()).resolve(project, id, { accept, reject }),
    'memory:consolidation-undo': async ({ project, id, itemId }) => (await current()).undo(project, id, itemId),
  };
}
