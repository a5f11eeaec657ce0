import { createHash } from 'node:crypto';
import { entryChecksum, isValidRepo, utf8Length, validateTeamMemoryKey } from '../../../common/team-memory/index.js';

/** Keys, repository names and hashes exactly as the server checks them (common/team-memory, docs/memory.md#team-memory). */

const sha256Hex = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** `"sha256:<hex>"` of the exact UTF-8 bytes, comparable to the server's `entryChecksums`. */
export function hashText(text: string): string {
  return entryChecksum(text, sha256Hex);
}

/** UTF-8 byte length, the unit of every size limit in docs/memory.md#team-memory. */
export const utf8Bytes = utf8Length;

/** A key both sides accept (docs/memory.md#team-memory): the shared validator. */
export function isValidTeamKey(key: string): boolean {
  return validateTeamMemoryKey(key).ok;
}

/** Why the server would refuse `key` ("it contains a backslash"), or null for a valid key. */
export function teamKeyProblem(key: string): string | null {
  const check = validateTeamMemoryKey(key);
  return check.ok ? null : check.reason;
}

/** `owner/name` as the server accepts it. */
export { isValidRepo };
