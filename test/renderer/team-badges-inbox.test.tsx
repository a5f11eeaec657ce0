import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConflictChoice, TeamStatus } from '../../common/domain/team';
import type { VaultFileMeta } from '../../common/domain/vault';
import { createFakeApi } from './support/fake-api';
import { syncedStatus } from './support/team-status';

const TEAM = 'projects/-p/memory/team';

function meta(name: string, syncState: VaultFileMeta['syncState'], extra: Partial<VaultFileMeta> = {}): VaultFileMeta {
  return {
    path: `${TEAM}/${name}`,
    scope: 'team-memory',
    projectSlug: '-p',
    title: name,
    description: null,
    type: 'project',
    size: 10,
    mtime: '2026-12-03T08:00:00.000Z',
    error: null,
    binary: false,
    tooLarge: false,
    ...(syncState ? { syncState } : {}),
    ...extra,
  };
}

const status: TeamStatus = { ...syncedStatus, conflicts: ['deploys.md'] };

afterEach(cleanup);

describe('team memory in the vault', () => {
  it('badges each team file with its sync state next to its type', async () => {
    window.strata = createFakeApi({}).api;
    vi.resetModules();
    const { useStore } = await import('../../renderer/src/store');
    const { FileTree } = await import('../../renderer/src/features/vault/file-tree');
    useStore.getState().setFiles([
      meta('a.md', 'synced'),
      meta('b.md', 'pending'),
      meta('c.md', 'conflict'),
      meta('d.md', 'blocked'),
      meta('e.md', 'too-large'),
      meta('g..md', 'invalid-name'),
      meta('f.md', undefined, { scope: 'project-memory', path: 'projects/-p/memory/f.md', type: 'user' }),
    ]);
    render(<FileTree />);
    const badges = (name: string) =>
      within(screen.getByRole('button', { name: new RegExp(`^${name}`) }))
        .getAllByText(/./, { selector: '.badge' })
        .map((b) => b.textContent);
    expect(badges('a.md')).toEqual(['✓ synced', 'project']);
    expect(badges('b.md')).toEqual(['pending', 'project']);
    expect(badges('c.md')).toEqual(['conflict', 'project']);
    expect(badges('d.md')).toEqual(['secret', 'project']);
    expect(badges('e.md')).toEqual(['too large', 'project']);
    expect(badges('g\\.\\.md')).toEqual(['name not synced', 'project']);
    expect(badges('f.md')).toEqual(['user']);
  });

  it('resolves a conflict from the inbox by keeping theirs, both or mine; Save merged waits for an edit', async () => {
    const resolved: { keep: ConflictChoice; text?: string }[] = [];
    window.strata = createFakeApi({
      'team:status': () => status,
      'team:read-conflict': ({ key }) => ({ key, path: `${TEAM}/${key}`, base: 'base\n', mine: 'mine\n', theirs: 'theirs\n', theirsBy: 'lee', theirsAt: '2026-12-04T14:05:00.000Z' }),
      'team:resolve-conflict': ({ keep, text }) => {
        resolved.push({ keep, ...(text !== undefined ? { text } : {}) });
        return status;
      },
    }).api;
    vi.resetModules();
    const { useStore } = await import('../../renderer/src/store');
    const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
    useStore.getState().setActiveProject('/p');
    useStore.getState().setTeamStatus(status);
    render(<ConflictsPanel />);
    for (const [button, keep] of [
      ['Keep theirs', 'theirs'],
      ['Keep both', 'both'],
      ['Keep mine', 'mine'],
    ] as const) {
      await userEvent.click(screen.getByRole('button', { name: 'deploys.md' }));
      await userEvent.click(await screen.findByRole('button', { name: button }));
      expect(resolved.at(-1)).toEqual({ keep });
      expect(screen.queryByRole('heading', { name: 'deploys.md' })).toBeNull();
    }
    await userEvent.click(screen.getByRole('button', { name: 'deploys.md' }));
    // Who made the other change and when; the base is one click away, not a third column.
    expect((await screen.findByText(/^Theirs — changed by lee, /)).textContent).toMatch(/2026/);
    expect(screen.queryByLabelText('Base version (last agreed)')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /Show the base/ }));
    expect(await screen.findByLabelText('Base version (last agreed)')).toBeTruthy();
    const save = await screen.findByRole('button', { name: 'Save merged' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect(resolved).toHaveLength(3);
  });

  it('lists every secret finding of a blocked file, and the files whose names the server refuses', async () => {
    const withProblems: TeamStatus = {
      ...syncedStatus,
      blocked: [
        {
          key: 'keys.md',
          path: `${TEAM}/keys.md`,
          rule: 'github-pat',
          line: 3,
          findings: [
            { rule: 'github-pat', line: 3 },
            { rule: 'aws-access-key', line: 9 },
          ],
        },
      ],
      invalidNames: [{ key: 'a\\b.md', path: `${TEAM}/a\\b.md`, reason: 'a backslash is not allowed' }],
    };
    window.strata = createFakeApi({ 'team:status': () => withProblems, 'team:list-deleted': () => [] }).api;
    vi.resetModules();
    const { useStore } = await import('../../renderer/src/store');
    const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
    useStore.getState().setActiveProject('/p');
    useStore.getState().setTeamStatus(withProblems);
    render(<ConflictsPanel />);
    expect(await screen.findByText(/github-pat on line 3, aws-access-key on line 9/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Names the team server refuses' })).toBeTruthy();
    expect(screen.getByText(/a backslash is not allowed/).textContent).toBe('a\\b.md: a backslash is not allowed');
    expect(screen.queryByText('No conflicts and nothing blocked.')).toBeNull();
  });

  it('shows files that did not sync with reason and advice, and confirms held deletions with one click', async () => {
    const withHeld: TeamStatus = {
      ...syncedStatus,
      failed: [{ key: 'long.md', path: `${TEAM}/long.md`, step: 'pull', reason: 'its name is longer than this disk allows', advice: 'ask the teammate who added it to give it a shorter name' }],
      heldDeletions: ['a.md', 'b.md'],
    };
    const syncs: unknown[] = [];
    window.strata = createFakeApi({
      'team:status': () => withHeld,
      'team:list-deleted': () => [],
      'team:sync-now': (request) => {
        syncs.push(request);
        return { ...withHeld, heldDeletions: [] };
      },
    }).api;
    vi.resetModules();
    const { useStore } = await import('../../renderer/src/store');
    const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
    useStore.getState().setActiveProject('/p');
    useStore.getState().setTeamStatus(withHeld);
    render(<ConflictsPanel />);
    expect((await screen.findByText(/longer than this disk allows/)).textContent).toBe(
      'long.md: its name is longer than this disk allows. Ask the teammate who added it to give it a shorter name.',
    );
    expect(screen.getByRole('heading', { name: 'Deletions waiting for you' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Delete them for everyone' }));
    expect(syncs).toEqual([{ project: '/p', confirmDeletions: true }]);
    await vi.waitFor(() => expect(screen.queryByRole('heading', { name: 'Deletions waiting for you' })).toBeNull());
  });
});
