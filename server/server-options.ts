import { defaultMemoryConfig } from '../common/config.js';

/**
 * The team server's settings (DESIGN.md `strata server` row). Limits default to SPEC §5's numbers; the
 * per-file limit and tombstone lifetime are the same config object the client uses.
 */
export interface ServerLimits {
  /** Live entries a repository may hold after a PUT (SPEC §5: 2,000). */
  maxEntries: number;
  /** UTF-8 bytes of one entry (SPEC §5: 250,000). */
  maxFileBytes: number;
  /** Bytes of one request body (SPEC §5: 1 MiB). */
  maxBodyBytes: number;
  /** Requests a minute per token; 0 turns the limit off (DESIGN.md: 600). */
  rateLimitPerMinute: number;
  /** How long a tombstone is served (SPEC §5: 30 days). */
  tombstoneMs: number;
}

/** Token and code lifetimes (DESIGN.md "The team server"). */
export interface AuthLifetimes {
  accessTokenMs: number;
  refreshTokenMs: number;
  authCodeMs: number;
}

export const defaultLimits: ServerLimits = {
  maxEntries: 2_000,
  maxFileBytes: defaultMemoryConfig.teamSync.maxFileBytes,
  maxBodyBytes: 1024 * 1024,
  rateLimitPerMinute: 600,
  tombstoneMs: defaultMemoryConfig.teamSync.tombstoneDays * 24 * 60 * 60 * 1000,
};

export const defaultLifetimes: AuthLifetimes = {
  accessTokenMs: 15 * 60 * 1000,
  refreshTokenMs: 30 * 24 * 60 * 60 * 1000,
  authCodeMs: 5 * 60 * 1000,
};

/** The one public OAuth client (DESIGN.md): the desktop app, no secret, PKCE S256 only. */
export const desktopClientId = 'strata-desktop';

/** Default listening port of `strata server`. */
export const defaultPort = 7420;

/** Usernames: short, printable, no spaces (they appear in logs and the CLI). */
export const usernamePattern = /^[A-Za-z0-9._@-]{1,64}$/;
