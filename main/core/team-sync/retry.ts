import { backoffDelay } from './batching.js';
import { isRetriable } from './sync-errors.js';
import type { ApiFailure } from './team-api.js';
import type { WaitBudget } from './wait-budget.js';

export interface RetryPolicy {
  baseMs: number;
  capMs: number;
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** The run's budget for waiting on the server: a wait it cannot cover is not started. */
  budget?: WaitBudget;
}

/**
 * Network errors, 429 and 5xx: wait (the server's Retry-After, else 500 ms × 2^(n−1) capped, with
 * jitter; docs/memory.md#team-sync) and try again, at most `maxRetries` times, and only while the run's
 * wait budget covers the wait (a try with nothing left to wait for its answer could only fail).
 * Anything else is returned at once.
 */
export async function withRetry<T extends { kind: string }>(policy: RetryPolicy, call: () => Promise<T | ApiFailure>): Promise<T | ApiFailure> {
  for (let attempt = 1; ; attempt++) {
    const result = await call();
    if (!isRetriable(result) || attempt > policy.maxRetries) return result;
    const retryAfter = 'retryAfterMs' in result ? (result.retryAfterMs as number | undefined) : undefined;
    const wait = Math.min(retryAfter ?? backoffDelay(attempt, policy.baseMs, policy.capMs, policy.random), policy.capMs);
    if (policy.budget && wait >= policy.budget.leftMs) return result;
    policy.budget?.spend(wait);
    await policy.sleep(wait);
  }
}
