import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VaultFileMeta } from '../../common/domain/vault';
import { createFakeApi } from './support/fake-api';

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

afterEach(cleanup);

describe('project names in the vault tree', () => {
  it('names a memory folder after the opened project it belongs to, else shows its whole slug', async () => {
    window.strata = createFakeApi({}).api;
    vi.resetModules();
    const { useStore } = await import('../../renderer/src/store');
    const { FileTree } = await import('../../renderer/src/features/vault/file-tree');
    // Dashes in a folder name are why the last slug segment ("site") is not a name.
    useStore.getState().setProjects([{ path: '/home/ana/my-site', name: 'my-site', openedAt: '2026-12-03T08:00:00Z', memorySlug: '-home-ana-my-site' }]);
    useStore.getState().setFiles([memory('-home-ana-my-site', 'a.md'), memory('-srv-old-app', 'b.md')]);
    render(<FileTree />);
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings).toEqual(['my-site', 'srv-old-app']);
  });
});
