import path from 'node:path';
import type { AllowancePlace } from '../../../common/domain/secrets.js';
import { nameFromFileName } from '../../../common/memory-file/repair.js';
import type { IndexedDoc } from '../search/index.js';
import { classifyVaultPath } from '../vault/index.js';

/** What naming a place needs from the vault. */
export interface PlaceNames {
  root: string;
  docAt(rel: string): IndexedDoc | undefined;
  projectName(projectSlug: string): string;
}

/**
 * An allowance's recorded place (`<action>: <path>`, the path absolute for an agent's write, vault-relative
 * for a team push, a bare file name for an import) as the user knows it: the memory's name — its
 * frontmatter `name` when the file is in the vault's catalog, else one read from the file name (a
 * refused write usually left no file) — and its project. Null for a place that names no file.
 */
export function allowancePlace(where: string, vault: PlaceNames): AllowancePlace | null {
  const m = /^([^:]+): (.+\.md)$/i.exec(where);
  if (!m) return null;
  const [, action, file] = m as unknown as [string, string, string];
  const inside = path.isAbsolute(file) ? path.relative(vault.root, file) : file;
  const rel = inside.startsWith('..') || path.isAbsolute(inside) ? null : inside.split(path.sep).join('/');
  const doc = rel === null ? undefined : vault.docAt(rel);
  const projectSlug = rel === null ? null : (classifyVaultPath(rel)?.projectSlug ?? null);
  return {
    action,
    memory: doc?.meta.title ?? nameFromFileName(file),
    project: projectSlug ? vault.projectName(projectSlug) : null,
    path: file,
  };
}
