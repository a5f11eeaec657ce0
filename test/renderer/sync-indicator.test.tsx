import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeamStatus } from '../../common/domain/team';
import { createFakeApi, startFakeMain } from './support/fake-api';
import { syncedStatus } from './support/team-status';

const base: TeamStatus = syncedStatus;

/** The status bar's sync indicator as the status events from main drive it (docs/memory.md#team-sync). */
async function mount() {
  const syncs: string[] = [];
  const fake = createFakeApi({
    'team:sync-now': ({ project }) => {
      syncs.push(project);
      return { ...base, phase: 'syncing' };
    },
  });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  const { wireTeamEvents } = await import('../../renderer/src/bridge/team-actions');
  wireTeamEvents();
  useStore.getState().setActiveProject('/p');
  const { SyncIndicator } = await import('../../renderer/src/features/shell/sync-indicator');
  render(<SyncIndicator />);
  const push = (status: Partial<TeamStatus>) => act(() => fake.emit('team:did-change-status', { ...base, ...status }));
  return { push, syncs, useStore };
}

afterEach(cleanup);

describe('the sync indicator', () => {
  it('shows synced, syncing with progress, offline with pending, and an error with Retry', async () => {
    const { push, syncs } = await mount();
    push({});
    expect(screen.getByRole('button', { name: 'Team memory synced' })).toBeTruthy();
    push({ phase: 'syncing', progress: { done: 3, total: 40 } });
    expect(screen.getByRole('button', { name: 'Syncing 3/40' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    push({ phase: 'offline', pending: 2 });
    expect(screen.getByRole('button', { name: 'Offline — 2 changes pending' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try now' })).toBeTruthy();
    // When the scheduler will try again on its own, so "offline" is not a dead end.
    const next = '2026-12-04T14:05:00.000Z';
    push({ phase: 'offline', pending: 2, nextSyncAt: next });
    const at = new Date(next).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(screen.getByRole('button', { name: `Offline — 2 changes pending · next try ${at}` })).toBeTruthy();
    push({ phase: 'error', error: 'The team server answered 500', conflicts: ['a.md'], blocked: [{ key: 'b.md', path: 'x/b.md', rule: 'github-pat', line: 3, findings: [{ rule: 'github-pat', line: 3 }] }] });
    const failed = screen.getByRole('button', { name: 'Sync failed · 1 conflict · 1 blocked' });
    expect(failed.getAttribute('title')).toBe('The team server answered 500');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(syncs).toEqual(['/p']);
  });

  it('opens the conflict inbox from the indicator, and stays hidden for a project without team memory', async () => {
    const { push, useStore } = await mount();
    push({ conflicts: ['a.md', 'b.md'] });
    await userEvent.click(screen.getByRole('button', { name: 'Team memory synced · 2 conflicts' }));
    expect(useStore.getState().view).toBe('vault');
    expect(useStore.getState().panel).toBe('conflicts');
    push({ phase: 'disabled' });
    expect(screen.queryByRole('button')).toBeNull();
  });
});
