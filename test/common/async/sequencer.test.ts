import { describe, expect, it } from 'vitest';
import { KeyedSequencer, Sequencer } from '../../../common/async/sequencer.js';

/** A promise the test settles by hand, to hold a task open while others are queued. */
function gate(): { promise: Promise<void>; open: () => void; fail: (error: Error) => void } {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('Sequencer', () => {
  it('runs tasks one at a time in call order, each caller getting its own result', async () => {
    const sequencer = new Sequencer();
    const log: string[] = [];
    const first = gate();
    const a = sequencer.run(async () => {
      log.push('a start');
      await first.promise;
      log.push('a end');
      return 'A';
    });
    const b = sequencer.run(() => {
      log.push('b');
      return 'B';
    });
    await turns();
    expect(log).toEqual(['a start']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['A', 'B']);
    expect(log).toEqual(['a start', 'a end', 'b']);
  });

  it('rejects the failed task to its own caller and still runs the next one', async () => {
    const sequencer = new Sequencer();
    const failing = sequencer.run(async () => {
      throw new Error('disk full');
    });
    const thrownSync = sequencer.run(() => {
      throw new Error('bad input');
    });
    const next = sequencer.run(async () => 'ran');
    await expect(failing).rejects.toThrow('disk full');
    await expect(thrownSync).rejects.toThrow('bad input');
    expect(await next).toBe('ran');
  });

  it('whenIdle waits for the tasks queued before it, even failing ones, and never rejects', async () => {
    const sequencer = new Sequencer();
    const held = gate();
    let done = false;
    const task = sequencer.run(async () => {
      await held.promise;
      done = true;
    });
    let idle = false;
    void sequencer.whenIdle().then(() => (idle = true));
    await turns();
    expect(idle).toBe(false);
    held.fail(new Error('refused'));
    await expect(task).rejects.toThrow('refused');
    await sequencer.whenIdle();
    expect(idle).toBe(true);
    expect(done).toBe(false);
  });
});

describe('KeyedSequencer', () => {
  it('serialises one key and lets other keys run side by side', async () => {
    const sequencer = new KeyedSequencer();
    const log: string[] = [];
    const held = gate();
    const a1 = sequencer.run('a', async () => {
      log.push('a1');
      await held.promise;
      log.push('a1 end');
    });
    const a2 = sequencer.run('a', () => void log.push('a2'));
    const b1 = sequencer.run('b', () => void log.push('b1'));
    await b1;
    await turns();
    expect(log).toEqual(['a1', 'b1']);
    held.open();
    await Promise.all([a1, a2]);
    expect(log).toEqual(['a1', 'b1', 'a1 end', 'a2']);
  });

  it('a failed task of a key does not block that key, and drained keys are forgotten', async () => {
    const sequencer = new KeyedSequencer();
    const failing = sequencer.run('k', async () => {
      throw new Error('no space');
    });
    const after = sequencer.run('k', async () => 2);
    expect(sequencer.size).toBe(1);
    await expect(failing).rejects.toThrow('no space');
    expect(await after).toBe(2);
    await turns();
    expect(sequencer.size).toBe(0);
  });
});
