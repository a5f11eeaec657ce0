import { controlCharacterProblem } from '../paths/control-characters.js';

/**
 * Team-memory key validation, shared by the server and the desktop client (docs/sync-protocol.md): a key is a
 * relative path with `/`; one with `..`, a backslash, a leading `/`, a NUL or another control character, or whose URL-decoded or
 * NFKC form does any of that, is rejected on both sides. Mirrors the reference system's
 * `validateTeamMemKey` (docs/memory.md#team-keys), minus the file-system checks the client adds.
 */

/** Why a key was refused; `reason` is a clause fit for an error message ("it contains a backslash"). */
export type KeyCheck = { ok: true } | { ok: false; reason: string };

/** Longest key accepted, in UTF-16 code units; far above any real path, it bounds the work per key. */
export const maxKeyLength = 1024;

/**
 * Longest path segment in UTF-8 bytes: ext4, APFS and most file systems stop at 255 (NTFS at 255
 * UTF-16 units, which 255 bytes never exceeds). The client's atomic writes use short temp names of
 * their own, so a legal segment stays legal while it is being written.
 */
export const maxSegmentBytes = 255;

/**
 * Longest key in UTF-8 bytes: the vault folder in front of it must still fit macOS's 1,024-byte
 * PATH_MAX and Windows' long paths, so half of that is left to the key.
 */
export const maxKeyBytes = 512;

/** Decoded and normalized forms checked per key at the most (a real key has one or two). */
const maxForms = 64;

function plainProblem(key: string): string | null {
  if (key.includes('\0')) return 'contains a NUL character';
  // A line break in a key splits the MEMORY.md line that points at it; an escape repaints a terminal.
  const control = controlCharacterProblem(key);
  if (control) return control;
  if (key.includes('\\')) return 'contains a backslash';
  if (key.startsWith('/')) return 'starts with /';
  if (key.split('/').includes('..')) return 'contains a .. path segment';
  if (key.includes('..')) return 'contains ..';
  return null;
}

/**
 * URL-decodes every well-formed escape and leaves malformed ones as they are, as a lenient server or
 * proxy would: one stray `%ZZ` must not keep `%2E%2E%2F` in the same key from being checked.
 * A run of escapes that is not valid UTF-8 still decodes its ASCII bytes (the dangerous ones).
 */
function decodeOnce(key: string): string | null {
  const decoded = key.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-7][0-9A-Fa-f])/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  });
  return decoded === key ? null : decoded;
}

const utf8 = new TextEncoder();

/** Checks one key; never throws. */
export function validateTeamMemoryKey(key: string): KeyCheck {
  if (typeof key !== 'string' || key.length === 0) return { ok: false, reason: 'it is empty' };
  if (key.length > maxKeyLength) return { ok: false, reason: `it is longer than ${maxKeyLength} characters` };
  const plain = plainProblem(key);
  if (plain) return { ok: false, reason: `it ${plain}` };
  // A lone UTF-16 surrogate has no UTF-8 form: the database would store another key than the one
  // whose checksum went into the repository checksum (docs/sync-protocol.md), and no file can carry such a name.
  if (/\p{Surrogate}/u.test(key)) return { ok: false, reason: 'it is not valid Unicode (a lone surrogate)' };
  if (key.endsWith('/')) return { ok: false, reason: 'it ends with /' };
  if (key.split('/').some((segment) => segment === '' || segment === '.')) {
    return { ok: false, reason: 'it has an empty or . path segment' };
  }
  // `entries` travel as JSON object keys, and assigning `__proto__` to a JavaScript object sets its
  // prototype instead of adding the key: zod's record parsing on both sides would drop it silently.
  if (utf8.encode(key).length > maxKeyBytes) return { ok: false, reason: `it is longer than ${maxKeyBytes} bytes, more than file systems allow in a path` };
  const longSegment = key.split('/').find((segment) => utf8.encode(segment).length > maxSegmentBytes);
  if (longSegment !== undefined) {
    return { ok: false, reason: `its name ${JSON.stringify(longSegment.slice(0, 40) + '…')} is longer than ${maxSegmentBytes} bytes, more than file systems allow` };
  }
  if (key === '__proto__') return { ok: false, reason: 'it is __proto__, which a JSON object cannot carry as a key' };
  // A key that means something else once a server or file system decodes it is a traversal attempt
  // in disguise (`%2e%2e`, `%2F`, fullwidth `．．／`, fullwidth `％2e`): every form reachable by
  // URL-decoding and NFKC normalization, as often as they change it, must be safe too. Each decoding
  // shortens the key, so the forms run out quickly; a key that still yields new ones after
  // `maxForms` is refused rather than half checked.
  const seen = new Set<string>([key]);
  let frontier: [string, string][] = [[key, '']];
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: [string, string][] = [];
    for (const [form, label] of frontier) {
      for (const [step, transformed] of [
        ['URL-decoded', decodeOnce(form)],
        ['NFKC-normalized', form.normalize('NFKC')],
      ] as const) {
        if (transformed === null || seen.has(transformed)) continue;
        if (seen.size >= maxForms) return { ok: false, reason: 'it is encoded too many times over to check' };
        const name = depth > 4 ? 'repeatedly URL-decoded and NFKC-normalized' : label ? `${label}, then ${step}` : step;
        seen.add(transformed);
        next.push([transformed, name]);
        const problem = plainProblem(transformed);
        if (problem) return { ok: false, reason: `its ${name} form ${problem}` };
        // The reference server also refuses an encoded `/` (a decoded form with more segments).
        if (transformed.split('/').length !== key.split('/').length) return { ok: false, reason: `its ${name} form contains another /` };
      }
    }
    frontier = next;
  }
  return { ok: true };
}

/** The repository name docs/sync-protocol.md accepts: `owner/name`. */
export const repoPattern = /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/;

/** True when `repo` is `owner/name` with docs/sync-protocol.md's characters, and neither part is `.` or `..`. */
export function isValidRepo(repo: string): boolean {
  if (!repoPattern.test(repo)) return false;
  return repo.split('/').every((part) => part !== '.' && part !== '..');
}
