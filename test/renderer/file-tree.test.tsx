import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VaultFileMeta } from '../../common/domain/vault';
import { createFakeApi } from './support/fake-api';

function instructions(path: string, projectSlug: string | null, title: string): VaultFileMeta {
  return {
    path,
    scope: 'instructions',
    projectSlug,
    title,
    description: null,
    type: null,
    size: 10,
    mtime: '2026-12-03T08:00:00.000Z',
    error: null,
    binary: false,
    tooLarge: false,
  };
}

afterEach(cleanup);

describe('Instructions in the vault tree', () => {
  it("groups each opened project's own CLAUDE.md files under the project's name, beside the user's", async () => {
    window.strata = createFakeApi({}).api;
    vi.resetModules();
    const { useStore } = await import('../../renderer/src/store');
    const { FileTree } = await import('../../renderer/src/features/vault/file-tree');
    // A subfolder of a repository: its memory is keyed by the git root, its instructions by the folder.
    useStore.getState().setProjects([{ path: '/home/ana/mono/web', name: 'web', openedAt: '2026-12-03T08:00:00Z', memorySlug: '-home-ana-mono' }]);
    useStore.getState().setFiles([
      instructions('CLAUDE.md', null, 'CLAUDE.md'),
      instructions('@projects/-home-ana-mono-web/CLAUDE.md', '-home-ana-mono-web', 'CLAUDE.md'),
      instructions('@projects/-home-ana-mono-web/.claude/rules/testing.md', '-home-ana-mono-web', '.claude/rules/testing.md'),
    ]);
    render(<FileTree />);
    const group = screen.getByRole('region', { name: 'Instructions' });
    expect(within(group).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['You', 'web']);
    const files = within(group).getAllByRole('button').map((b) => b.getAttribute('title'));
    expect(files).toEqual(['CLAUDE.md', '@projects/-home-ana-mono-web/.claude/rules/testing.md', '@projects/-home-ana-mono-web/CLAUDE.md']);
  });
});
