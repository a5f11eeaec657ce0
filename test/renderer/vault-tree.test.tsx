import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { VaultFileMeta } from '../../common/domain/vault';
import { buildTreeRows, humanTitle, naturalCompare } from '../../renderer/src/features/vault/tree-rows';
import { createFakeApi, startFakeMain } from './support/fake-api';

function note(slug: string, name: string, over: Partial<VaultFileMeta> = {}): VaultFileMeta {
  return {
    path: `projects/${slug}/memory/${name.replace(/ /g, '-')}.md`,
    scope: 'project-memory',
    projectSlug: slug,
    title: name,
    description: null,
    type: 'project',
    size: 10,
    mtime: '2026-12-03T08:00:00.000Z',
    error: null,
    binary: false,
    tooLarge: false,
    ...over,
  };
}

const input = (files: VaultFileMeta[], collapsed: string[] = []) => ({
  files,
  sort: 'name' as const,
  collapsed: new Set(collapsed),
  projectLabel: (slug: string | null) => slug ?? 'You',
  fileTitle: (f: VaultFileMeta) => f.title,
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('the vault tree rows', () => {
  it('sorts names naturally: note 104 before note 1001, case ignored', () => {
    const rows = buildTreeRows(input(['note 1001', 'Note 104', 'note 9', 'note 10'].map((n) => note('p', n))));
    expect(rows.filter((r) => r.kind === 'file').map((r) => (r.kind === 'file' ? r.title : ''))).toEqual(['note 9', 'note 10', 'Note 104', 'note 1001']);
    expect(naturalCompare('a2', 'a10')).toBeLessThan(0);
  });

  it('counts each group, and a collapsed group keeps its heading but drops its rows', () => {
    const files = [note('alpha', 'one'), note('alpha', 'two'), note('beta', 'three')];
    const open = buildTreeRows(input(files));
    const scope = open.find((r) => r.kind === 'scope' && r.scope === 'project-memory');
    expect(scope && scope.kind === 'scope' ? scope.count : -1).toBe(3);
    const closedProject = buildTreeRows(input(files, ['project-memory/alpha']));
    expect(closedProject.filter((r) => r.kind === 'file').map((r) => r.key)).toEqual([files[2]!.path]);
    const closedScope = buildTreeRows(input(files, ['project-memory']));
    expect(closedScope.filter((r) => r.scope === 'project-memory').map((r) => r.kind)).toEqual(['scope']);
  });

  it('names session notes by their conversation, never by an id', () => {
    const id = '0b8f3c1e-8a8e-4d1c-9a55-1f2e3d4c5b6a';
    const notes = note('p', id, { path: `projects/p/${id}/session-memory/summary.md`, scope: 'session-notes', title: id, type: null });
    expect(humanTitle(notes, new Map([[id, 'Fix the login page']]))).toBe('Fix the login page');
    expect(humanTitle(notes, new Map())).toMatch(/^Notes from /);
    expect(humanTitle(notes, new Map())).not.toContain(id);
  });
});

describe('the vault tree on screen', () => {
  async function renderTree(files: VaultFileMeta[]) {
    startFakeMain(createFakeApi({}).api);
    const { useStore } = await import('../../renderer/src/store');
    const { FileTree } = await import('../../renderer/src/features/vault/file-tree');
    useStore.getState().setFiles(files);
    render(<FileTree />);
    return useStore;
  }

  it('draws only the rows on screen at 10,000 notes', async () => {
    const files = Array.from({ length: 10_000 }, (_, i) => note(`p${i % 20}`, `note ${i}`));
    await renderTree(files);
    const drawn = document.querySelectorAll('.tree-file').length;
    expect(drawn).toBeGreaterThan(5);
    expect(drawn).toBeLessThan(100);
  });

  it('collapses a group from its heading and remembers it after a restart', async () => {
    await renderTree([note('alpha', 'one'), note('alpha', 'two')]);
    const toggle = screen.getByRole('button', { name: /alpha/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(screen.queryByRole('button', { name: /^one/ })).toBeNull();
    cleanup();
    await renderTree([note('alpha', 'one'), note('alpha', 'two')]);
    expect(screen.getByRole('button', { name: /alpha/ }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: /^one/ })).toBeNull();
  });
});
