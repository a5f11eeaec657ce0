import type { Logger } from '../ports.js';
import type { SyncReport } from './sync-types.js';

/** The timer functions, injectable so tests drive time themselves. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface SyncSchedulerOptions {
  /** `engine.sync()` (or a wrapper that also refreshes the UI). */
  sync: () => Promise<SyncReport>;
  /** docs/memory.md#team-memory: 5 minutes. */
  pullIntervalMs: number;
  /** docs/memory.md#team-memory: 2 s after the last local change. */
  pushDebounceMs: number;
  logger: Logger;
  timers?: Timers;
  /** Told after each run once the next one is scheduled (`nextRunAt` then says when). */
  scheduled?: () => void;
  now?: () => number;
}

/**
 * When sync runs while the app is open (docs/memory.md#team-memory): at start, every `pullIntervalMs`, on demand, and
 * `pushDebounceMs` after the last local change (the vault watcher calls `notifyLocalChange`). Runs
 * never overlap; a change during a run schedules one more.
 */
export class SyncScheduler {
  private readonly timers: Timers;
  private pullTimer: unknown = null;
  private pushTimer: unknown = null;
  private running: Promise<SyncReport> | null = null;
  private again = false;
  /** The run queued behind the current one by `runNow`. */
  private next: Promise<SyncReport> | null = null;
  private stopped = true;
  /** When the earliest timer fires (ms since the epoch), null while none is set. */
  private pullAt: number | null = null;
  private pushAt: number | null = null;

  constructor(private readonly o: SyncSchedulerOptions) {
    this.timers = o.timers ?? realTimers;
  }

  /** When the next run starts on its own (ms since the epoch); null while one runs or none is due. */
  nextRunAt(): number | null {
    if (this.running) return null;
    const due = [this.pullAt, this.pushAt].filter((t): t is number => t !== null);
    return due.length > 0 ? Math.min(...due) : null;
  }

  /** Starts with a pull + push, then keeps the 5-minute cadence. */
  start(): Promise<SyncReport> {
    this.stopped = false;
    return this.runNow();
  }

  /**
   * "Sync now" from the UI; also what the timers call. During a run it answers with a fresh run after
   * it — the one in progress may have read the files before the change the user wants synced — and
   * every call made meanwhile shares that one run.
   */
  runNow(): Promise<SyncReport> {
    if (this.running) {
      const current = this.running;
      this.next ??= current
        .catch(() => undefined)
        .then(() => {
          this.next = null;
          // Stopped meanwhile (sign-out, shutdown): no new run; the caller gets the last one's result.
          return this.stopped ? current : this.runNow();
        });
      return this.next;
    }
    this.clear();
    this.running = this.o
      .sync()
      .catch((error: Error) => {
        this.o.logger.error('scheduled team sync failed', { message: error.message });
        throw error;
      })
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again && !this.next) {
          this.again = false;
          this.schedulePush();
        }
        this.pullTimer = this.timers.setTimeout(() => void this.runNow().catch(() => undefined), this.o.pullIntervalMs);
        this.pullAt = this.now() + this.o.pullIntervalMs;
        this.o.scheduled?.();
      });
    return this.running;
  }

  /** A team file changed locally: push after the debounce. */
  notifyLocalChange(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.pushTimer !== null) this.timers.clearTimeout(this.pushTimer);
    this.schedulePush();
  }

  private schedulePush(): void {
    this.pushTimer = this.timers.setTimeout(() => {
      this.pushTimer = null;
      this.pushAt = null;
      void this.runNow().catch(() => undefined);
    }, this.o.pushDebounceMs);
    this.pushAt = this.now() + this.o.pushDebounceMs;
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** Resolves when no run is in progress (tests, and shutdown before a final push). */
  async idle(): Promise<void> {
    while (this.running || this.next) await (this.next ?? this.running)!.catch(() => undefined);
  }

  /** Stops the timers and waits for a run in progress; one last push is the caller's choice. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clear();
    await this.running?.catch(() => undefined);
  }

  private clear(): void {
    if (this.pullTimer !== null) this.timers.clearTimeout(this.pullTimer);
    if (this.pushTimer !== null) this.timers.clearTimeout(this.pushTimer);
    this.pullTimer = null;
    this.pushTimer = null;
    this.pullAt = null;
    this.pushAt = null;
  }
}
