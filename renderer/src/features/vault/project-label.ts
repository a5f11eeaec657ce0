import { useCallback } from 'react';
import type { Project } from '../../../../common/domain/app';
import { useStore } from '../../store';

/**
 * The name a memory folder is shown under: the opened project whose memory lives there, else the slug
 * itself (slugs are lossy — `/`, `-` and `.` all became `-` — so no part of one is a safe name).
 */
export function projectLabel(slug: string | null, projects: readonly Project[]): string {
  if (!slug) return 'You';
  return projects.find((p) => p.memorySlug === slug)?.name ?? slug.replace(/^-+/, '');
}

/** `projectLabel` bound to the project list in the store. */
export function useProjectLabel(): (slug: string | null) => string {
  const projects = useStore((s) => s.projects);
  return useCallback((slug: string | null) => projectLabel(slug, projects), [projects]);
}
