import { createHash, randomBytes, scrypt, timingSafeEqual, type BinaryLike } from 'node:crypto';
import type { Sha256Hex } from '../common/team-memory/index.js';

/** SHA-256 hex for the shared checksum helpers (common/team-memory stays free of Node built-ins). */
export const sha256Hex: Sha256Hex = (data) => createHash('sha256').update(data).digest('hex');

/** How a token secret is stored: its SHA-256, never the secret itself. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new secret: 32 random bytes, base64url, after a prefix saying what it is (`sat_`, `srt_`, `spat_`). */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** A short public id (token ids, user ids). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(9).toString('base64url')}`;
}

/** scrypt's cost parameters; they are written into every hash, so a hash checks at the cost it was made with. */
export interface PasswordCost {
  N: number;
  r: number;
  p: number;
}

// N=2^15 r=8 p=1 (≈32 MiB, tens of ms): slow enough to make guessing costly, per OWASP's table. Only tests
// pass a cheaper cost (TeamServerOptions.passwordCost, TeamAdmin.open); the CLI never does.
export const productionPasswordCost: PasswordCost = { N: 32768, r: 8, p: 1 };
const maxmem = 64 * 1024 * 1024;

function scryptAsync(password: BinaryLike, salt: Buffer, cost: PasswordCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, { ...cost, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, so parameters can rise later without breaking old hashes. */
export async function hashPassword(password: string, cost: PasswordCost = productionPasswordCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password.normalize('NFC'), salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** A hash no password matches, checked when there is no account so that answering takes as long. */
const dummyHash = (cost: PasswordCost) => `scrypt$${cost.N}$${cost.r}$${cost.p}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

/**
 * Constant-work check: an unknown user or a password-less account still costs one scrypt at `cost`, the
 * cost new passwords are hashed with.
 */
export async function verifyPassword(password: string, stored: string | null, cost: PasswordCost = productionPasswordCost): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = (stored ?? dummyHash(cost)).split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(password.normalize('NFC'), Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}
