import { describe, expect, it } from 'vitest';
import { SyncScheduler, type Timers } from '../../../../main/core/team-sync/sync-scheduler.js';
import { emptyReport } from '../../../../main/core/team-sync/sync-types.js';
import { testLogger } from '../../../support/test-logger.js';

/** Timers the test fires by hand. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let id = 0;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      pending.set(++id, { fn, ms });
      return id;
    },
    clearTimeout: (handle) => pending.delete(handle as number),
  };
  return {
    timers,
    delays: () => [...pending.values()].map((p) => p.ms).sort((a, b) => a - b),
    fire(ms: number) {
      const entry = [...pending].find(([, p]) => p.ms === ms);
      if (!entry) throw new Error(`no timer of ${ms} ms`);
      pending.delete(entry[0]);
      entry[1].fn();
    },
  };
}

describe('sync scheduler', () => {
  it('syncs at start, every 5 minutes, and 2 s after the last local change', async () => {
    const t = manualTimers();
    let runs = 0;
    const scheduler = new SyncScheduler({
      sync: async () => {
        runs++;
        return emptyReport();
      },
      pullIntervalMs: 300_000,
      pushDebounceMs: 2_000,
      logger: testLogger().logger,
      timers: t.timers,
    });
    await scheduler.start();
    expect(runs).toBe(1);
    expect(t.delays()).toEqual([300_000]);

    scheduler.notifyLocalChange();
    scheduler.notifyLocalChange();
    expect(t.delays()).toEqual([2_000, 300_000]);
    t.fire(2_000);
    await scheduler.idle();
    expect(runs).toBe(2);
    expect(t.delays()).toEqual([300_000]);

    t.fire(300_000);
    await scheduler.idle();
    expect(runs).toBe(3);
    await scheduler.stop();
    expect(t.delays()).toEqual([]);
    scheduler.notifyLocalChange();
    expect(t.delays()).toEqual([]);
  });
});
