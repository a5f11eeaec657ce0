import type { Clock, Logger } from '../../common/ports.js';
import type { AuthStore } from '../storage/auth-store.js';

/**
 * How long an ended token or code is kept: a day, so a client back soon after is told its token
 * `expired` or `revoked` rather than unknown, and instances whose clocks differ by seconds never
 * delete a row another still treats as live.
 */
export const cleanupGraceMs = 24 * 60 * 60 * 1000;
/** How often the cleanup runs after the one at start. */
export const defaultCleanupIntervalMs = 60 * 60 * 1000;

/**
 * Removes ended access tokens, refresh-token families and authorization codes (`AuthStore.deleteEnded`)
 * at start and then every interval. The timer is unref'd, so it never keeps a process alive; `stop()`
 * ends it and waits for a run in progress, so the database can close after it.
 */
export class TokenCleanup {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: AuthStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly intervalMs: number = defaultCleanupIntervalMs,
  ) {}

  start(): void {
    this.run();
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One run at a time: a slow one is not stacked on. */
  private run(): void {
    if (this.running) return;
    this.running = (async () => {
      try {
        const removed = await this.store.deleteEnded(this.clock.now() - cleanupGraceMs);
        this.logger.info('ended sign-in records removed', removed ? { ...removed } : { skipped: 'another instance is cleaning' });
      } catch (error) {
        this.logger.error('ended sign-in records could not be removed', { error: error instanceof Error ? error.message : String(error) });
      } finally {
        this.running = null;
      }
    })();
  }
}
