import { describe, expect, it } from 'vitest';
import { ok } from '../../../../common/result.js';
import { trackInFlight } from '../../../../main/core/ipc/in-flight.js';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('trackInFlight', () => {
  it('waits for every request still being answered, including one sent while it waits', async () => {
    const done: string[] = [];
    const tracked = trackInFlight(async (channel) => {
      await later(channel === 'slow' ? 80 : 20);
      done.push(channel);
      return ok(null);
    });
    void tracked.dispatch('slow', {});
    const waiting = tracked.settled(2_000);
    void tracked.dispatch('late', {});
    await waiting;
    expect(done.sort()).toEqual(['late', 'slow']);
  });

  it('gives up after its timeout when a request never ends', async () => {
    const tracked = trackInFlight(() => new Promise(() => undefined));
    void tracked.dispatch('stuck', {});
    const started = Date.now();
    await tracked.settled(50);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
