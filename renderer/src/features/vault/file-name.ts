import { useCallback, useMemo } from 'react';
import type { Project } from '../../../../common/domain/app';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { useStore } from '../../store';
import { projectLabel } from './project-label';

/**
 * A vault file as a person names it: its title (a memory's `name`), else its file name without `.md`,
 * with the project it belongs to — "Prefers tabs · my-site". Paths stay off the screen (the file's
 * Copy path action gives it when asked).
 */
export function humanFileName(path: string, titles: ReadonlyMap<string, string>, projects: readonly Project[]): string {
  const known = titles.get(path);
  const base = path.split('/').pop() ?? path;
  const name = known ?? base.replace(/\.md$/i, '');
  const slug = /^@?projects\/([^/]+)\//.exec(path)?.[1] ?? null;
  return slug ? `${name} · ${projectLabel(slug, projects)}` : name;
}

/** `humanFileName` bound to the store's file and project lists (titles looked up in a map: Health lists thousands). */
export function useFileName(): (path: string) => string {
  const files = useStore((s) => s.files);
  const projects = useStore((s) => s.projects);
  const titles = useMemo(() => new Map(files.map((f: VaultFileMeta) => [f.path, f.title] as const)), [files]);
  return useCallback((path: string) => humanFileName(path, titles, projects), [titles, projects]);
}

/** Conversation titles by session id, from every project's session list the app has loaded. */
export function useSessionTitles(): ReadonlyMap<string, string> {
  const sessions = useStore((s) => s.sessions);
  return useMemo(() => new Map(Object.values(sessions).flatMap((list) => list.map((x) => [x.sessionId, x.title] as const))), [sessions]);
}
