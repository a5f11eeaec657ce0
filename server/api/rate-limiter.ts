import type { Clock } from '../../main/core/ports.js';

/**
 * A fixed one-minute window per key (the hash of the bearer token). It lives in the process: with N
 * instances behind a load balancer a token may make up to N × the limit (README "Run a team server").
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one request; returns the seconds to wait when over the limit, else null. */
  take(key: string): number | null {
    if (this.perMinute <= 0) return null;
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= 60_000) {
      if (this.windows.size > 10_000) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.perMinute) return null;
    return Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= 60_000) this.windows.delete(key);
  }
}
