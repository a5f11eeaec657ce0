import { MemoryUsageStore } from '../auto-memory/index.js';
import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';

/** How recall used the memories of the current vault (docs/memory.md#provenance-and-use). */
export function createMemoryUseHandlers(services: Services): Pick<Handlers, 'memory:usage' | 'memory:usage-move'> {
  const usage = () => MemoryUsageStore.forVault(services.vault().root, services.config.clock);
  return {
    'memory:usage': async () => usage().all(),
    'memory:usage-move': async ({ moves }) => {
      await usage().move(moves);
      return { moved: moves.length };
    },
  };
}
