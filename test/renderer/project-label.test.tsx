import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Project } from '../../common/domain/app';
import type { VaultFileMeta } from '../../common/domain/vault';
import { createFakeApi, startFakeMain } from './support/fake-api';

function memory(slug: string, name: string): VaultFileMeta {
  return {
    path: `projects/${slug}/memory/${name}`,
    scope: 'project-memory',
    projectSlug: slug,
    title: name,
    description: null,
    type: 'user',
    size: 10,
    mtime: '2026-12-03T08:00:00.000Z',
    error: null,
    binary: false,
    tooLarge: false,
  };
}

/** An instruction file: the user's (`projectSlug` null) or an opened project's own. */
function instructions(path: string, projectSlug: string | null, title: string): VaultFileMeta {
  return { ...memory(projectSlug ?? '', title), path, scope: 'instructions', projectSlug, type: null };
}

afterEach(cleanup);

/** Renders the tree over a fresh store holding `projects` and `files`. */
async function renderTree(projects: Project[], files: VaultFileMeta[]) {
  startFakeMain(createFakeApi({}).api);
  const { useStore } = await import('../../renderer/src/store');
  const { FileTree } = await import('../../renderer/src/features/vault/file-tree');
  useStore.getState().setProjects(projects);
  useStore.getState().setFiles(files);
  render(<FileTree />);
}

describe('project names in the vault tree', () => {
  it('names a memory folder after the opened project it belongs to, else shows its whole slug', async () => {
    // Dashes in a folder name are why the last slug segment ("site") is not a name.
    await renderTree(
      [{ path: '/home/ana/my-site', name: 'my-site', openedAt: '2026-12-03T08:00:00Z', memorySlug: '-home-ana-my-site' }],
      [memory('-home-ana-my-site', 'a.md'), memory('-srv-old-app', 'b.md')],
    );
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.querySelector('.tree-label')?.textContent);
    expect(headings).toEqual(['my-site', 'srv-old-app']);
  });

  it("groups each opened project's own CLAUDE.md files under Instructions by the project's name, beside the user's", async () => {
    // A subfolder of a repository: its memory is keyed by the git root, its instructions by the folder.
    await renderTree(
      [{ path: '/home/ana/mono/web', name: 'web', openedAt: '2026-12-03T08:00:00Z', memorySlug: '-home-ana-mono' }],
      [
        instructions('CLAUDE.md', null, 'CLAUDE.md'),
        instructions('@projects/-home-ana-mono-web/CLAUDE.md', '-home-ana-mono-web', 'CLAUDE.md'),
        instructions('@projects/-home-ana-mono-web/.claude/rules/testing.md', '-home-ana-mono-web', '.claude/rules/testing.md'),
      ],
    );
    const group = screen.getByRole('region', { name: 'Instructions' });
    expect(within(group).getAllByRole('heading', { level: 3 }).map((h) => h.querySelector('.tree-label')?.textContent)).toEqual(['You', 'web']);
    const files = within(group)
      .getAllByRole('button')
      .filter((b) => b.classList.contains('tree-file'))
      .map((b) => b.getAttribute('title'));
    expect(files).toEqual(['CLAUDE.md', '@projects/-home-ana-mono-web/.claude/rules/testing.md', '@projects/-home-ana-mono-web/CLAUDE.md']);
  });

  it("shows a project's instruction file path under the project's name, other paths as they are", async () => {
    const { displayPath } = await import('../../renderer/src/features/vault/project-label');
    const projects = [{ path: '/home/ana/mono/web', name: 'web', openedAt: '2026-12-03T08:00:00Z', memorySlug: '-home-ana-mono' }];
    expect(displayPath('@projects/-home-ana-mono-web/.claude/rules/testing.md', projects)).toBe('web/.claude/rules/testing.md');
    expect(displayPath('@projects/-srv-gone/CLAUDE.md', projects)).toBe('srv-gone/CLAUDE.md');
    expect(displayPath('projects/-home-ana-mono/memory/a.md', projects)).toBe('projects/-home-ana-mono/memory/a.md');
  });
});
