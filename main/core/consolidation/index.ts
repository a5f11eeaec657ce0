/** Memory consolidation you approve (docs/memory-upkeep.md "Tidying memory"). */
export { Consolidator, type ConsolidationFork, type ConsolidationOutcome, type ConsolidatorOptions } from './consolidator.js';
export { createConsolidationFork } from './consolidation-fork.js';
export { ChangesetStore } from './changeset-store.js';
export { ConsolidationService } from './consolidation-service.js';
export { ConsolidationLock, LOCK_FILE } from './consolidation-lock.js';
export { consolidationGates, sessionsTouchedSince } from './consolidation-gates.js';
