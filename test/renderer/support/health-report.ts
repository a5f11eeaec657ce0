import type { HealthProblem, HealthReport } from '../../../common/domain/vault';

/** A Health report that lists only `problems` (the rest empty), as Health's panel tests need. */
export const healthReport = (problems: HealthProblem[]): HealthReport => ({
  totalTokens: 1000,
  files: [],
  indexes: [],
  stale: [],
  duplicates: [],
  largeInstructions: [],
  problems,
  brokenPointers: [],
  missingFromIndex: [],
});
