import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionNotes } from '../../common/domain/chat';
import { createFakeApi } from './support/fake-api';

const notes = (text: string, over: Partial<SessionNotes> = {}): SessionNotes => ({
  sessionId: 's1',
  path: 'projects/-p/s1/session-memory/summary.md',
  exists: true,
  text,
  hash: `sha256:${text.length}`,
  updating: false,
  ...over,
});

/** The live session-notes panel (issue 5 item 4): rendered, updating as the updater edits, editable without racing it. */
async function mount(initial: SessionNotes) {
  const writes: { text: string; baseHash: string | null }[] = [];
  const fake = createFakeApi({
    'notes:read': () => initial,
    'notes:write': ({ text, baseHash }) => {
      writes.push({ text, baseHash });
      return notes(text);
    },
  });
  window.strata = fake.api;
  vi.resetModules();
  const { wireChatEvents } = await import('../../renderer/src/bridge/chat-actions');
  wireChatEvents();
  const { NotesPanel } = await import('../../renderer/src/features/chat/notes-panel');
  render(<NotesPanel project="/p" sessionId="s1" />);
  return { fake, writes };
}

afterEach(cleanup);

describe('the session notes panel', () => {
  it('renders the notes and follows the updater live, saying when it is updating', async () => {
    const { fake } = await mount(notes('# Current State\nReading the parser.\n'));
    await screen.findByRole('heading', { name: 'Current State' });
    act(() => fake.emit('notes:did-change', notes('# Current State\nReading the parser.\n', { updating: true })));
    expect(screen.getByRole('status').textContent).toContain('updating');
    act(() => fake.emit('notes:did-change', notes('# Current State\nFixing the tokenizer.\n')));
    expect(await screen.findByText('Fixing the tokenizer.')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('saves the user’s edit against the version it started from', async () => {
    const { writes } = await mount(notes('# Worklog\n- one\n'));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const box = screen.getByLabelText('Session notes text');
    await userEvent.type(box, '- two{enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes).toEqual([{ text: '# Worklog\n- one\n- two\n', baseHash: 'sha256:16' }]));
    expect(await screen.findByText('two')).toBeTruthy();
  });

  it('will not save over an update that arrived while the user was editing', async () => {
    const { fake, writes } = await mount(notes('# Worklog\n- one\n'));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    await userEvent.type(screen.getByLabelText('Session notes text'), 'mine');
    act(() => fake.emit('notes:did-change', notes('# Worklog\n- one\n- from the updater\n')));
    expect(screen.getByRole('alert').textContent).toContain('nothing was overwritten');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText('Session notes text') as HTMLTextAreaElement).value).toContain('mine');
    expect(writes).toEqual([]);
  });

  it('explains when the notes will start, before there are any', async () => {
    await mount(notes('', { exists: false, hash: null }));
    expect(await screen.findByText(/Notes start once the conversation has some substance/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
