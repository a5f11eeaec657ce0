import { useCallback } from 'react';
import type { Project } from '../../../../common/domain/app';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { useStore } from '../../store';
import { projectLabel } from './project-label';

/**
 * A vault file as a person names it: its title (a memory's `name`), else its file name without `.md`,
 * with the project it belongs to — "Prefers tabs · my-site". Paths stay off the screen (the file's
 * Copy path action gives it when asked).
 */
export function humanFileName(path: string, files: readonly VaultFileMeta[], projects: readonly Project[]): string {
  const known = files.find((f) => f.path === path);
  const base = path.split('/').pop() ?? path;
  const name = known?.title ?? base.replace(/\.md$/i, '');
  const slug = /^@?projects\/([^/]+)\//.exec(path)?.[1] ?? null;
  return slug ? `${name} · ${projectLabel(slug, projects)}` : name;
}

/** `humanFileName` bound to the store's file and project lists. */
export function useFileName(): (path: string) => string {
  const files = useStore((s) => s.files);
  const projects = useStore((s) => s.projects);
  return useCallback((path: string) => humanFileName(path, files, projects), [files, projects]);
}
