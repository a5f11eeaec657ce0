/**
 * How long one sync may spend waiting on a team server that does not answer, across all its requests
 * and backoff waits (docs/memory.md#team-sync: `teamSync.unansweredBudgetMs`, 60 s). Only waiting
 * counts: a server that answers keeps a long first pull going, one that never answers ends the whole
 * run within the budget instead of after every retry's own timeout.
 */
export class WaitBudget {
  private spentMs = 0;

  constructor(readonly totalMs: number) {}

  get leftMs(): number {
    return Math.max(0, this.totalMs - this.spentMs);
  }

  spend(ms: number): void {
    this.spentMs += Math.max(0, ms);
  }
}

/** What a sync run lends one request: the signal that stops it and the run's budget for waiting. */
export interface RequestScope {
  signal?: AbortSignal;
  budget?: WaitBudget;
}
