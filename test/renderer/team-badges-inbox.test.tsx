import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConflictChoice, TeamStatus } from '../../common/domain/team';
import type { VaultFileMeta } from '../../common/domain/vault';
import { createFakeApi, startFakeMain } from './support/fake-api';
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
    startFakeMain(createFakeApi({}).api);
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

  it('resolves a conflict from the inbox by keeping theirs, both or yours; Save the result waits for an edit', async () => {
    const resolved: { keep: ConflictChoice; text?: string }[] = [];
    startFakeMain(createFakeApi({
      'team:status': () => status,
      'team:read-conflict': ({ key }) => ({
        key,
        path: `${TEAM}/${key}`,
        base: 'base\n',
        mine: 'mine\n',
        theirs: 'theirs\n',
        receivedAt: '2026-12-04T09:30:00.000Z',
        you: 'dana',
      }),
      'team:resolve-conflict': ({ keep, text }) => {
        resolved.push({ keep, ...(text !== undefined ? { text } : {}) });
        return status;
      },
    }).api);
    const { useStore } = await import('../../renderer/src/store');
    const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
    useStore.getState().setActiveProject('/p');
    useStore.getState().setTeamStatus(status);
    render(<ConflictsPanel />);
    for (const [button, keep] of [
      ['Keep theirs', 'theirs'],
      ['Keep both', 'both'],
      ['Keep yours', 'mine'],
    ] as const) {
      await userEvent.click(screen.getByRole('button', { name: 'deploys.md' }));
      await userEvent.click(await screen.findByRole('button', { name: button }));
      expect(resolved.at(-1)).toEqual({ keep });
      expect(screen.queryByRole('dialog')).toBeNull();
    }
    await userEvent.click(screen.getByRole('button', { name: 'deploys.md' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve deploys.md' });
    const save = within(dialog).getByRole('button', { name: 'Save the result' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    // Who is on which side, and when theirs arrived.
    expect(within(dialog).getByText(/dana, on this computer/)).toBeTruthy();
    expect(within(dialog).getByText(/received Dec 4, 2026/)).toBeTruthy();
    // The base is one click away, and away again.
    expect(within(dialog).queryByLabelText('Base version (last agreed)')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show the base' }));
    expect(within(dialog).getByLabelText('Base version (last agreed)').textContent).toContain('base');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Hide the base' }));
    expect(within(dialog).queryByLabelText('Base version (last agreed)')).toBeNull();
    // Escape closes without resolving, and focus goes back to the conflict's name.
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'deploys.md' }));
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
    startFakeMain(createFakeApi({ 'team:status': () => withProblems, 'team:list-deleted': () => [], 'secrets:rule-kinds': () => ({ 'github-pat': 'GitHub personal access token', 'aws-access-key': 'AWS access key' }) }).api);
    const { useStore } = await import('../../renderer/src/store');
    const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
    useStore.getState().setActiveProject('/p');
    useStore.getState().setTeamStatus(withProblems);
    render(<ConflictsPanel />);
    expect(await screen.findByText(/a GitHub personal access token on line 3, an AWS access key on line 9/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Names the team server refuses' })).toBeTruthy();
    expect(screen.getByText(/a backslash is not allowed/).textContent).toBe('a\\b.md: a backslash is not allowed');
    expect(screen.queryByText('No conflicts and nothing blocked.')).toBeNull();
  });
});
