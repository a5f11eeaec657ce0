import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConflictView, TeamStatus } from '../../common/domain/team';
import { createFakeApi, startFakeMain } from './support/fake-api';
import { syncedStatus } from './support/team-status';

const TEAM = 'projects/-p/memory/team';
const BASE = 'one\ntwo\nthree\nfour\nfive\n';
const MINE = 'one, as I put it\ntwo\nthree\nfour\nfive\n';
const THEIRS = 'one, as they put it\ntwo\nthree\nfour\nfive, and a sixth\n';

afterEach(cleanup);

async function open(view: Omit<ConflictView, 'key' | 'path' | 'receivedAt' | 'you'>) {
  const status: TeamStatus = { ...syncedStatus, conflicts: ['n.md'] };
  const saved: { keep: string; text?: string }[] = [];
  startFakeMain(createFakeApi({
    'team:status': () => status,
    'team:read-conflict': ({ key }) => ({ key, path: `${TEAM}/${key}`, receivedAt: '2026-12-04T09:30:00.000Z', you: null, ...view }),
    'team:resolve-conflict': ({ keep, text }) => {
      saved.push({ keep, ...(text !== undefined ? { text } : {}) });
      return status;
    },
  }).api);
  const { useStore } = await import('../../renderer/src/store');
  const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
  useStore.getState().setActiveProject('/p');
  useStore.getState().setTeamStatus(status);
  render(<ConflictsPanel />);
  await userEvent.click(screen.getByRole('button', { name: 'n.md' }));
  return { dialog: await screen.findByRole('dialog', { name: 'Resolve n.md' }), saved };
}

describe('the conflict resolver', () => {
  it('starts the result with their changes that do not touch yours, so only the overlap is left to decide', async () => {
    const { dialog, saved } = await open({ base: BASE, mine: MINE, theirs: THEIRS });
    const result = within(dialog).getByLabelText('Your version (the result, editable)');
    expect(result.textContent).toContain('one, as I put it');
    expect(result.textContent).toContain('five, and a sixth');
    expect(within(dialog).getByText(/already in the result/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save the result' }));
    expect(saved).toEqual([{ keep: 'merged', text: 'one, as I put it\ntwo\nthree\nfour\nfive, and a sixth\n' }]);
  });

  it('starts from yours alone when there is no base to merge against, and names no account it does not know', async () => {
    const { dialog } = await open({ base: null, mine: MINE, theirs: THEIRS });
    const result = within(dialog).getByLabelText('Your version (the result, editable)');
    expect(result.textContent).not.toContain('sixth');
    expect(within(dialog).queryByText(/already in the result/)).toBeNull();
    expect((within(dialog).getByRole('button', { name: 'Save the result' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByText(/^— on this computer · the result$/)).toBeTruthy();
  });

  it('keeps Tab inside the dialog: past the last control it comes back to the first', async () => {
    const { dialog } = await open({ base: BASE, mine: MINE, theirs: THEIRS });
    within(dialog).getByRole('button', { name: 'Save the result' }).focus();
    await userEvent.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Close' }));
    await userEvent.tab({ shift: true });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Save the result' }));
  });
});
