import { promises as fs } from 'node:fs';
import path from 'node:path';
import { controlCharacterProblem } from '../../../common/paths/control-characters.js';
import { isAllowanceFile } from '../secrets/index.js';

/** The outcome of a sandbox check: the real path to write to, or why not (told to the model as is). */
export type SandboxResult = { ok: true; realPath: string } | { ok: false; reason: string };

class SandboxDenied extends Error {}

const MAX_SYMLINKS = 40;

/** Compared forms for the "differs only by case or Unicode normalization" diagnosis. */
const fold = (s: string) => s.normalize('NFKC').toLowerCase();

/**
 * The real path of `p` without lexical `..` folding (docs/memory.md#auto-memory): each existing component is taken as
 * it is on disk, a symlink is replaced by its readlink target (so a dangling link is followed to where it
 * would write), a `..` inside a link target goes to the physical parent; from the first missing component
 * on, the rest is joined as written.
 */
async function resolvePhysical(p: string, budget: { links: number }): Promise<string> {
  const root = path.parse(p).root;
  const segments = p.slice(root.length).split(path.sep).filter((s) => s !== '' && s !== '.');
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '..') {
      current = path.dirname(current);
      continue;
    }
    const candidate = path.join(current, segment);
    const stat = await fs.lstat(candidate).catch(() => null);
    if (!stat) {
      const rest = segments.slice(i);
      if (rest.includes('..')) throw new SandboxDenied('the path goes through a missing folder and then `..`');
      return path.join(current, ...rest);
    }
    if (stat.isSymbolicLink()) {
      if (--budget.links < 0) throw new SandboxDenied('too many levels of symbolic links');
      const link = await fs.readlink(candidate);
      current = await resolvePhysical(path.isAbsolute(link) ? link : `${current}${path.sep}${link}`, budget);
    } else {
      current = candidate;
    }
  }
  return current;
}

/** A lexical reason to refuse before touching the disk. */
function lexicalProblem(requested: string): string | null {
  if (requested.includes('\0')) return 'the path contains a NUL byte';
  if (requested.includes('\\')) return 'backslashes are not allowed in memory paths';
  for (const segment of requested.split('/')) {
    if (segment === '..') return '`..` segments are not allowed in memory paths';
    const compat = segment.normalize('NFKC');
    if (compat !== segment && (/^\.+$/.test(compat) || /[/\\]/.test(compat))) {
      return `the segment "${segment}" is disguised as "${compat}"`;
    }
  }
  return null;
}

/**
 * Write sandbox for every agent Write/Edit/Delete into a memory folder (docs/memory.md#auto-memory): allowed
 * only when the target's real path lies strictly inside the memory folder's real path. Nothing is created.
 * A relative path is taken relative to the memory folder. A write (not a read or delete of a file already there,
 * which must stay possible to clear it away) may not name a file or folder with a control character in it.
 */
export async function checkMemoryWrite(memoryDir: string, requestedPath: string, intent: 'write' | 'existing' = 'write'): Promise<SandboxResult> {
  if (typeof requestedPath !== 'string' || requestedPath.trim() === '') return { ok: false, reason: 'no file path given' };
  const problem = lexicalProblem(requestedPath);
  if (problem) return { ok: false, reason: problem };
  const absolute = path.isAbsolute(requestedPath) ? requestedPath : `${path.resolve(memoryDir)}${path.sep}${requestedPath}`;
  let memReal: string;
  let target: string;
  try {
    memReal = await resolvePhysical(path.resolve(memoryDir), { links: MAX_SYMLINKS });
    target = await resolvePhysical(absolute, { links: MAX_SYMLINKS });
  } catch (error) {
    if (error instanceof SandboxDenied) return { ok: false, reason: error.message };
    return { ok: false, reason: `cannot resolve the path (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (target === memReal) return { ok: false, reason: 'the path is the memory folder itself, not a file in it' };
  if (!target.startsWith(memReal + path.sep)) {
    if (fold(target).startsWith(fold(memReal) + path.sep) || fold(target) === fold(memReal)) {
      return { ok: false, reason: `${target} differs only by case or Unicode normalization from the memory folder ${memReal}` };
    }
    const lexicallyInside = path.resolve(absolute).startsWith(path.resolve(memoryDir) + path.sep);
    return {
      ok: false,
      reason: lexicallyInside
        ? `a symbolic link leads out of the memory folder (to ${target})`
        : `${target} is outside the memory folder ${memReal}`,
    };
  }
  const named = intent === 'write' ? controlCharacterProblem(target.slice(memReal.length + 1)) : null;
  if (named) return { ok: false, reason: `the name ${JSON.stringify(target.slice(memReal.length + 1))} is not allowed: it ${named}` };
  // The user's "Not a secret" list is theirs alone, wherever a memory folder happens to sit.
  if (isAllowanceFile(target)) return { ok: false, reason: 'the secret allowance list can only be changed by the user' };
  const stat = await fs.stat(target).catch(() => null);
  if (stat?.isDirectory()) return { ok: false, reason: 'the path is a folder, not a file' };
  // A hard link shares its content with a file that may live outside: an in-place edit would change both.
  if (stat && stat.nlink > 1) return { ok: false, reason: 'the file is hard-linked (its content may live outside the memory folder)' };
  return { ok: true, realPath: target };
}
