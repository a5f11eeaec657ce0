import { useCallback } from 'react';
import type { Project } from '../../../../common/domain/app';
import { slug as folderSlug } from '../../../../common/paths/slug';
import { useStore } from '../../store';

/**
 * The name a project folder of the vault is shown under: the opened project it is the folder of (its
 * own instructions, `@projects/<slug>`, and its transcripts are keyed by the opened folder), else the
 * one whose memory lives there, else the slug itself (slugs are lossy — `/`, `-` and `.` all became
 * `-` — so no part of one is a safe name).
 */
export function projectLabel(slug: string | null, projects: readonly Project[]): string {
  if (!slug) return 'You';
  const project = projects.find((p) => folderSlug(p.path) === slug) ?? projects.find((p) => p.memorySlug === slug);
  return project?.name ?? slug.replace(/^-+/, '');
}

/** `projectLabel` bound to the project list in the store. */
export function useProjectLabel(): (slug: string | null) => string {
  const projects = useStore((s) => s.projects);
  return useCallback((slug: string | null) => projectLabel(slug, projects), [projects]);
}

/** A vault path as a person reads it: an opened project's own instruction file under the project's name. */
export function displayPath(path: string, projects: readonly Project[]): string {
  const match = /^@projects\/([^/]+)\/(.+)$/.exec(path);
  return match ? `${projectLabel(match[1]!, projects)}/${match[2]!}` : path;
}

/** `displayPath` bound to the project list in the store. */
export function useDisplayPath(): (path: string) => string {
  const projects = useStore((s) => s.projects);
  return useCallback((path: string) => displayPath(path, projects), [projects]);
}
