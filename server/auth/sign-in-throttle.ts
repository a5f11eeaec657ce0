import type { Clock } from '../../common/ports.js';
import type { SqlDb } from '../storage/sql-db.js';

// Fixed numbers rather than flags: every instance behind the load balancer must count alike (a flag
// set differently on two instances would let one of them take more guesses), and these are the usual
// lockout figures (OWASP Authentication Cheat Sheet; NIST SP 800-63B §5.2.2 allows at most 100).
const windowMs = 15 * 60_000;
/** Wrong passwords for one username in a window, from any number of addresses (a distributed guesser). */
const perUsername = 5;
/** Attempts that did not succeed from one address in a window: more, as an office or a NAT shares one. */
const perAddress = 20;

/** An attempt that holds a slot in each bucket it counts against, until it succeeds or fails. */
export interface SignInAttempt {
  slots: { bucket: string; windowStart: number }[];
  userBucket: string | null;
}

export type ThrottleAnswer = { ok: true; attempt: SignInAttempt } | { ok: false; retryAfterSeconds: number };

/**
 * The client address as counted: an IPv4 address as it is, an IPv6 address by its /64, the block one
 * subscriber usually holds (RFC 6177), so rotating through it buys no extra guesses.
 */
export function addressBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return `addr:${mapped[1]}`;
  if (!ip.includes(':')) return `addr:${ip}`;
  const [head = '', tail] = ip.split('%')[0]!.split('::');
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const front = groups(head);
  const full = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - groups(tail).length).fill('0'), ...groups(tail)];
  return `addr:${full.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/**
 * Throttles password guessing on the sign-in form, per username and per client address, counted in the
 * database so the limits hold across every instance on one PostgreSQL (the rate limiter's approach: a
 * fixed window a bucket, one atomic upsert a count). An attempt takes its slot *before* the password
 * is checked, so concurrent guesses cannot all pass a check made before any of them failed. A wrong
 * password keeps its slots; a right one clears the username's count and gives the address its slot
 * back (sign-ins that succeed never lock out the people sharing an address). Unknown usernames count
 * like real ones, so the answers never tell whether an account exists.
 */
export class SignInThrottle {
  private nextSweep = 0;

  constructor(
    private readonly db: SqlDb,
    private readonly clock: Clock,
  ) {}

  /** Takes a slot for `address` and, when given (a name an account could have), for `username`. */
  async begin(username: string | null, address: string): Promise<ThrottleAnswer> {
    const now = this.clock.now();
    if (now >= this.nextSweep) {
      this.nextSweep = now + windowMs;
      await this.db.run('DELETE FROM signin_attempts WHERE window_start <= ?', [now - windowMs]);
    }
    const addressSlot = await this.take(addressBucket(address), perAddress, now);
    if ('retryAfterSeconds' in addressSlot) return { ok: false, retryAfterSeconds: addressSlot.retryAfterSeconds };
    const userBucket = username === null ? null : `user:${username}`;
    if (userBucket) {
      const userSlot = await this.take(userBucket, perUsername, now);
      if ('retryAfterSeconds' in userSlot) {
        await this.release(addressSlot);
        return { ok: false, retryAfterSeconds: userSlot.retryAfterSeconds };
      }
      return { ok: true, attempt: { slots: [addressSlot, userSlot], userBucket } };
    }
    return { ok: true, attempt: { slots: [addressSlot], userBucket } };
  }

  /** The password was right: the username starts over, the address gets its slot back. */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    if (attempt.userBucket) await this.db.run('DELETE FROM signin_attempts WHERE bucket = ?', [attempt.userBucket]);
    for (const slot of attempt.slots) if (slot.bucket !== attempt.userBucket) await this.release(slot);
  }

  /**
   * Counts up to one past `limit` (so a refused attempt is told apart from the one that reached it),
   * opening a new window when the stored one is over.
   */
  private async take(bucket: string, limit: number, now: number): Promise<{ bucket: string; windowStart: number } | { retryAfterSeconds: number }> {
    const expired = now - windowMs;
    const [row] = await this.db.query<{ window_start: number; attempts: number }>(
      `INSERT INTO signin_attempts (bucket, window_start, attempts) VALUES (?, ?, 1)
       ON CONFLICT (bucket) DO UPDATE SET
         attempts = CASE WHEN signin_attempts.window_start <= ? THEN 1
                         WHEN signin_attempts.attempts <= ? THEN signin_attempts.attempts + 1
                         ELSE signin_attempts.attempts END,
         window_start = CASE WHEN signin_attempts.window_start <= ? THEN excluded.window_start ELSE signin_attempts.window_start END
       RETURNING window_start, attempts`,
      [bucket, now, expired, limit, expired],
    );
    const windowStart = Number(row!.window_start);
    if (Number(row!.attempts) <= limit) return { bucket, windowStart };
    // Clamped: instances whose clocks disagree must still answer a sane Retry-After.
    return { retryAfterSeconds: Math.min(windowMs / 1000, Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))) };
  }

  private async release(slot: { bucket: string; windowStart: number }): Promise<void> {
    await this.db.run('UPDATE signin_attempts SET attempts = attempts - 1 WHERE bucket = ? AND window_start = ? AND attempts > 0', [
      slot.bucket,
      slot.windowStart,
    ]);
  }
}
