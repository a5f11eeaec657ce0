import { MemoryUsageStore } from '../auto-memory/index.js';
import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';

/** How recall used the memories of the current vault (docs/memory.md#provenance-and-use). */
export function createMemoryUseHandlers(services: Services): Pick<Handlers, 'memory:usage'> {
  return {
    'memory:usage': async () => MemoryUsageStore.forVault(services.vault().root, services.config.clock).all(),
  };
}
