import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConflictView, TeamStatus } from '../../common/domain/team';
import { err } from '../../common/result';
import { createFakeApi, startFakeMain } from './support/fake-api';
import { syncedStatus } from './support/team-status';

const TEAM = 'projects/-p/memory/team';
const BASE = 'one\ntwo\nthree\nfour\nfive\n';
const MINE = 'one, as I put it\ntwo\nthree\nfour\nfive\n';
const THEIRS = 'one, as they put it\ntwo\nthree\nfour\nfive, and a sixth\n';

afterEach(cleanup);

async function open(view: Omit<ConflictView, 'key' | 'path' | 'receivedAt' | 'you'>, dialogName = 'Resolve n.md') {
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
  return { dialog: await screen.findByRole('dialog', { name: dialogName }), saved };
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

  const memory = (name: string, description: string, body: string, extra = '') =>
    `---\nname: ${name}\ndescription: ${description}\ntype: feedback\n${extra}---\n${body}`;

  it('titles a memory by its name and shows its frontmatter as fields, never as YAML, with the body in the panes', async () => {
    const base = memory('Prefers tabs', 'How the team indents', 'Indent with tabs.\n', 'originSessionId: 894ebb62\n');
    const mine = memory('Prefers tabs', 'How the team indents code', 'Indent with tabs, 2 wide.\n', 'originSessionId: 894ebb62\n');
    const theirs = memory('Tabs for indentation', 'How we indent', 'Indent with tabs, 4 wide.\n', 'originSessionId: 894ebb62\n');
    const { dialog, saved } = await open({ base, mine, theirs }, 'Resolve Prefers tabs');
    expect(within(dialog).getByText('n.md')).toBeTruthy();
    const result = within(dialog).getByLabelText('Your version (the result, editable)');
    expect(result.textContent).toBe('Indent with tabs, 2 wide.');
    expect(within(dialog).getByLabelText('Their version').textContent).toBe('Indent with tabs, 4 wide.');
    expect(dialog.textContent).not.toMatch(/---|name:|originSessionId/);
    const fields = within(dialog).getByRole('group', { name: 'Name, description and type' });
    // Agreed: once; differing: both, yours kept until theirs is chosen.
    expect(within(fields).getByText('Feedback')).toBeTruthy();
    const name = within(fields).getByRole('group', { name: 'Name: which one to keep' });
    expect((within(name).getByRole('radio', { name: 'Yours Prefers tabs' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(within(name).getByRole('radio', { name: 'Theirs Tabs for indentation' }));
    // With the base shown, what each field held before is under it.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show the base' }));
    expect(within(fields).getByText('Before: How the team indents')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save the result' }));
    expect(saved).toEqual([{ keep: 'merged', text: memory('Tabs for indentation', 'How the team indents code', 'Indent with tabs, 2 wide.\n', 'originSessionId: 894ebb62\n') }]);
  });

  it('goes back to yours when a field is chosen back, and has nothing to save then', async () => {
    const mine = memory('Prefers tabs', 'How we indent', 'Tabs.\n');
    const theirs = memory('Tabs', 'How we indent', 'Tabs.\n');
    const { dialog } = await open({ base: null, mine, theirs }, 'Resolve Prefers tabs');
    const save = within(dialog).getByRole('button', { name: 'Save the result' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Theirs Tabs' }));
    expect(save.disabled).toBe(false);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Yours Prefers tabs' }));
    expect(save.disabled).toBe(true);
  });

  it('offers Undo after Keep both: the conflict comes back, or the reason it cannot is shown and nothing else happens', async () => {
    const status: TeamStatus = { ...syncedStatus, conflicts: ['n.md'] };
    const refusal = 'n-dana-2026-12-07.md changed after Keep both, so nothing was undone: the files stay as they are now.';
    const undos: string[] = [];
    startFakeMain(createFakeApi({
      'team:status': () => status,
      'vault:list-files': () => [],
      'team:read-conflict': ({ key }) => ({ key, path: `${TEAM}/${key}`, receivedAt: '2026-12-04T09:30:00.000Z', you: null, base: BASE, mine: MINE, theirs: THEIRS }),
      'team:resolve-conflict': () => ({ ...status, conflicts: [] }),
      'team:undo-keep-both': ({ key }) => (undos.push(key) === 1 ? status : err('conflict', refusal)),
    }).api);
    const { useStore } = await import('../../renderer/src/store');
    const { ConflictsPanel } = await import('../../renderer/src/features/conflicts/conflicts-panel');
    const { ToastHost } = await import('../../renderer/src/features/shell/toast');
    useStore.getState().setActiveProject('/p');
    useStore.getState().setTeamStatus(status);
    render(<><ConflictsPanel /><ToastHost /></>);
    const keepBoth = async () => {
      await userEvent.click(screen.getByRole('button', { name: 'n.md' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep both' }));
      await userEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    };
    await keepBoth();
    await screen.findByText('n.md is in conflict again, as before Keep both.');
    expect(useStore.getState().team['/p']!.conflicts).toEqual(['n.md']);
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(useStore.getState().conflict).toEqual({ project: '/p', key: 'n.md' });
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close' }));
    await keepBoth();
    await expect.poll(() => useStore.getState().error?.message).toBe(refusal);
    expect(useStore.getState().toast).toBeNull();
    expect(undos).toEqual(['n.md', 'n.md']);
  });
});
