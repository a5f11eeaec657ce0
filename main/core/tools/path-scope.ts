import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Tool path scoping (docs/memory.md#where-things-live, docs/architecture.md#the-agent). A path is absolute or relative to the project folder;
 * it is resolved component by component with the real path of every existing ancestor, so a symlink
 * is followed where it really leads and `..` means the real parent, never a lexical fold.
 */
export type RootKind = 'project' | 'memory' | 'readonly';

export interface PathScope {
  project: string;
  /** The project's memory folders (`memory/`, `memory/team/`): read/write, no prompt. */
  memory: string[];
  /** Extra read-only roots (this session's `session-memory/`). */
  readOnly: string[];
}

export type Resolved = { ok: true; path: string; kind: RootKind } | { ok: false; message: string };

async function realOrNull(p: string): Promise<string | null> {
  try {
    return await fs.realpath(p);
  } catch {
    return null;
  }
}

/** The real path of `input`; missing trailing components are kept as given. */
export async function realResolve(input: string, project: string): Promise<string | null> {
  const abs = path.isAbsolute(input) ? input : path.join(project, input);
  const parts = abs.split(path.sep).filter((p) => p !== '');
  let current = path.parse(abs).root;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part === '.') continue;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = await realOrNull(path.join(current, part));
    if (next === null) {
      const rest = parts.slice(i);
      // Past a missing folder there is nothing real to resolve `..` against.
      if (rest.includes('..')) return null;
      return path.join(current, ...rest.filter((p) => p !== '.'));
    }
    current = next;
  }
  return current;
}

const inside = (p: string, root: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * Real roots of a scope. A root that does not exist yet is resolved through its deepest existing
 * ancestor, as a tool's path is, so a file created in it later (a session's notes folder in a vault
 * reached through a symlink) is recognized as inside it.
 */
export async function realScope(scope: PathScope): Promise<PathScope> {
  const real = async (p: string) => (await realOrNull(p)) ?? (await realResolve(path.resolve(p), path.resolve(p))) ?? path.resolve(p);
  return {
    project: await real(scope.project),
    memory: await Promise.all(scope.memory.map(real)),
    readOnly: await Promise.all(scope.readOnly.map(real)),
  };
}

/** Resolves a tool's path and says which root holds it; outside every root is an error the model sees. */
export async function resolveInScope(input: string, scope: PathScope): Promise<Resolved> {
  if (typeof input !== 'string' || input.trim() === '') return { ok: false, message: 'A file path is required.' };
  const real = await realResolve(input, scope.project);
  if (real === null) return { ok: false, message: `Cannot resolve ${input}: it uses ".." below a folder that does not exist.` };
  // Memory folders may sit inside the project; the more specific root wins.
  if (scope.memory.some((m) => inside(real, m))) return { ok: true, path: real, kind: 'memory' };
  if (scope.readOnly.some((r) => inside(real, r))) return { ok: true, path: real, kind: 'readonly' };
  if (inside(real, scope.project)) return { ok: true, path: real, kind: 'project' };
  return {
    ok: false,
    message: `${input} is outside the project folder (${scope.project}) and the memory folders; it cannot be accessed.`,
  };
}
