/**
 * The `STRATA_FAULT=<point>[:<n>]` seam (docs/memory.md#team-sync, crash tests): the process dies at the n-th time
 * (default first) the engine reaches a named point, as a `kill -9` would. The value is read once by
 * the caller and passed in; production passes nothing and every `hit` is a no-op. In-process tests may
 * pass their own seam whose `hit` acts as the user at that point (`before-pull-rename`: a save between
 * the pull's plan and its rename).
 */
export const faultPoints = ['after-batch-put', 'before-pull-rename', 'after-pull-rename', 'before-state-write', 'after-state-write'] as const;

export type FaultPoint = (typeof faultPoints)[number];

/** Thrown instead of exiting when the seam is built with `mode: 'throw'` (in-process tests). */
export class InjectedCrash extends Error {
  constructor(readonly point: FaultPoint) {
    super(`injected crash at ${point}`);
    this.name = 'InjectedCrash';
  }
}

export interface FaultSeam {
  hit(point: FaultPoint): void;
}

export const noFaults: FaultSeam = { hit() {} };

/** Parses the env value; an unknown point is an error rather than a silently passing crash test. */
export function faultSeamFrom(value: string | undefined, mode: 'exit' | 'throw' = 'exit'): FaultSeam {
  if (!value) return noFaults;
  const [point, countText] = value.split(':');
  if (!faultPoints.includes(point as FaultPoint)) throw new Error(`STRATA_FAULT: unknown point ${point} (known: ${faultPoints.join(', ')})`);
  const target = countText ? Number(countText) : 1;
  let seen = 0;
  return {
    hit(reached) {
      if (reached !== point || ++seen !== target) return;
      if (mode === 'throw') throw new InjectedCrash(reached);
      // A real SIGKILL: no exit handlers, no flush, no pending writes finished.
      process.kill(process.pid, 'SIGKILL');
    },
  };
}
