import type { Clock } from '../../common/ports.js';
import type { SqlDb } from '../storage/sql-db.js';

const windowMs = 60_000;

/**
 * A fixed one-minute window per token (docs/architecture.md: 600 requests a minute per token), counted in the
 * database so the limit holds for the token across every instance behind a load balancer, not per
 * process. One atomic upsert a request: it opens a new window when the stored one is over, else counts.
 */
export class RateLimiter {
  private nextSweep = 0;

  constructor(
    private readonly db: SqlDb,
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one request of `bucket` (a token id); returns the seconds to wait when over the limit, else null. */
  async take(bucket: string): Promise<number | null> {
    if (this.perMinute <= 0) return null;
    const now = this.clock.now();
    const expired = now - windowMs;
    if (now >= this.nextSweep) {
      this.nextSweep = now + windowMs;
      await this.db.run('DELETE FROM rate_windows WHERE window_start <= ?', [expired]);
    }
    const [row] = await this.db.query<{ window_start: number; hits: number }>(
      `INSERT INTO rate_windows (bucket, window_start, hits) VALUES (?, ?, 1)
       ON CONFLICT (bucket) DO UPDATE SET
         hits = CASE WHEN rate_windows.window_start <= ? THEN 1 ELSE rate_windows.hits + 1 END,
         window_start = CASE WHEN rate_windows.window_start <= ? THEN excluded.window_start ELSE rate_windows.window_start END
       RETURNING window_start, hits`,
      [bucket, now, expired, expired],
    );
    if (!row || Number(row.hits) <= this.perMinute) return null;
    // Clamped: instances whose clocks disagree must still answer a sane Retry-After.
    return Math.min(60, Math.max(1, Math.ceil((Number(row.window_start) + windowMs - now) / 1000)));
  }
}
