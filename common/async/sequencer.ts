/**
 * Runs tasks one at a time, in call order: read-modify-write cycles, appends and transactions that
 * share one resource never interleave. A failed task rejects its own caller and does not block the
 * next one. The same idea as VS Code's `Sequencer` / `SequencerByKey`.
 */
export class Sequencer {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const start = () => task();
    const result = this.last.then(start, start);
    this.last = result.catch(() => undefined);
    return result;
  }

  /** Settles once every task queued before this call has settled (whether it failed or not). */
  whenIdle(): Promise<void> {
    return this.last.then(() => undefined);
  }
}

/**
 * One `Sequencer` per key (a file path, a session id): tasks of one key run one at a time in call
 * order, tasks of different keys run side by side. A key's entry is dropped once its queue drains, so
 * the map holds only keys with work pending.
 */
export class KeyedSequencer {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const start = () => task();
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(start, start);
    const settled = result.catch(() => undefined);
    this.tails.set(key, settled);
    void settled.then(() => {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    });
    return result;
  }

  /** How many keys have work queued or running (what the map still holds). */
  get size(): number {
    return this.tails.size;
  }
}
