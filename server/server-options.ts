import { defaultMemoryConfig } from '../common/config.js';

/**
 * The team server's settings (docs/architecture.md `strata server` row). Limits default to docs/sync-protocol.md's numbers; the
 * per-file limit and tombstone lifetime are the same config object the client uses.
 */
export interface ServerLimits {
  /** Live entries a repository may hold after a PUT (docs/sync-protocol.md: 2,000). */
  maxEntries: number;
  /** UTF-8 bytes of one entry (docs/sync-protocol.md: 250,000). */
  maxFileBytes: number;
  /** Bytes of one request body (docs/sync-protocol.md: 1 MiB). */
  maxBodyBytes: number;
  /** Requests a minute per token; 0 turns the limit off (docs/architecture.md: 600). */
  rateLimitPerMinute: number;
  /** How long a tombstone is served (docs/sync-protocol.md: 30 days). */
  tombstoneMs: number;
  /**
   * Tombstones a repository keeps; beyond it the oldest are compacted away at the next PUT, so deletions
   * cannot grow every hashes answer and every PUT without bound. A client that missed a compacted
   * tombstone sees the file as one the server forgot and uploads it again: nothing is lost.
   */
  maxTombstones: number;
  /**
   * UTF-8 bytes of all live entries of a repository. A full GET is one JSON string, at most six times
   * its content (every byte escaped as `\u00XX`); this keeps it well under V8's longest string, so
   * every repository the server accepted stays servable.
   */
  maxRepoBytes: number;
  /** A request that has not fully arrived after this long is answered 408 and closed. */
  requestTimeoutMs: number;
}

/** Token and code lifetimes (docs/sync-protocol.md). */
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
  maxTombstones: 2_000,
  maxRepoBytes: 32 * 1024 * 1024,
  requestTimeoutMs: 30_000,
};

export const defaultLifetimes: AuthLifetimes = {
  accessTokenMs: 15 * 60 * 1000,
  refreshTokenMs: 30 * 24 * 60 * 60 * 1000,
  authCodeMs: 5 * 60 * 1000,
};

/** The one public OAuth client (docs/architecture.md): the desktop app, no secret, PKCE S256 only. */
export const desktopClientId = 'strata-desktop';

/** Default listening port of `strata server`. */
export const defaultPort = 7420;

/** Usernames: short, printable, no spaces (they appear in logs and the CLI). */
export const usernamePattern = /^[A-Za-z0-9._@-]{1,64}$/;
