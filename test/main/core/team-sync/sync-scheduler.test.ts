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
  it('says when the next run starts on its own, once the last one ended (none while a run is in progress)', async () => {
    const t = manualTimers();
    let now = 1_000_000;
    const told: (number | null)[] = [];
    let during: number | null | undefined;
    const scheduler: SyncScheduler = new SyncScheduler({
      sync: async () => {
        during = scheduler.nextRunAt();
        return emptyReport();
      },
      pullIntervalMs: 300_000,
      pushDebounceMs: 2_000,
      logger: testLogger().logger,
      timers: t.timers,
      now: () => now,
      scheduled: () => told.push(scheduler.nextRunAt()),
    });
    await scheduler.start();
    expect(during).toBeNull();
    expect(told).toEqual([1_300_000]);
    now += 10_000;
    scheduler.notifyLocalChange();
    expect(scheduler.nextRunAt()).toBe(1_012_000);
    await scheduler.stop();
    expect(scheduler.nextRunAt()).toBeNull();
  });

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

  it('answers "Sync now" during a run with one fresh run after it, shared by every call made meanwhile', async () => {
    const t = manualTimers();
    const started: number[] = [];
    let release: (() => void) | null = null;
    const scheduler = new SyncScheduler({
      sync: async () => {
        started.push(started.length + 1);
        // The first run is slow (a pull at start); the ones after return at once.
        if (started.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return { ...emptyReport(), pushed: [`run ${started.length}`] };
      },
      pullIntervalMs: 300_000,
      pushDebounceMs: 2_000,
      logger: testLogger().logger,
      timers: t.timers,
    });
    const first = scheduler.start();
    // The user saved a file and clicked "Sync now" twice while the first run was reading the folder.
    const a = scheduler.runNow();
    const b = scheduler.runNow();
    expect(a).toBe(b);
    release!();
    expect((await first).pushed).toEqual(['run 1']);
    expect((await a).pushed).toEqual(['run 2']);
    await scheduler.idle();
    expect(started).toHaveLength(2);
    await scheduler.stop();
  });
});
