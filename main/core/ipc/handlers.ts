import type { Services } from '../services.js';
import { createAppHandlers } from './app-handlers.js';
import type { Handlers } from './dispatcher.js';
import { createVaultHandlers } from './vault-handlers.js';
import { createSessionHandlers, createTurnHandlers } from './chat-handlers.js';
import { createTeamHandlers } from './team-handlers.js';
import { createSecretsHandlers } from './secrets-handlers.js';
import { createPortabilityHandlers } from './portability-handlers.js';
import { createConsolidationHandlers } from './consolidation-handlers.js';
import { createMemoryUseHandlers } from './memory-use-handlers.js';

/** The handler of every invoke channel, bound to the composition root; the type makes a gap a compile error. */
export function createHandlers(services: Services, shell: 'electron' | 'host'): Handlers {
  return {
    ...createAppHandlers(services, shell),
    ...createVaultHandlers(services),
    ...createSessionHandlers(services),
    ...createTurnHandlers(services),
    ...createTeamHandlers(services),
    ...createSecretsHandlers(services),
    ...createPortabilityHandlers(services),
    ...createConsolidationHandlers(services),
    ...createMemoryUseHandlers(services),
  };
}
