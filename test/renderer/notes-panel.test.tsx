import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionNotes } from '../../common/domain/chat';
import { EditorView } from '@codemirror/view';
import { createFakeApi, startFakeMain } from './support/fake-api';

const notes = (text: string, over: Partial<SessionNotes> = {}): SessionNotes => ({
  sessionId: 's1',
  path: 'projects/-p/s1/session-memory/summary.md',
  exists: true,
  text,
  hash: `sha256:${text.length}`,
  updating: false,
  ...over,
});

/** The live session-notes panel (docs/memory.md#session-notes): rendered, updating as the updater edits, editable without racing it. */
async function mount(initial: SessionNotes) {
  const writes: { text: string; baseHash: string | null }[] = [];
  const fake = createFakeApi({
    'notes:read': () => initial,
    'notes:write': ({ text, baseHash }) => {
      writes.push({ text, baseHash });
      return notes(text);
    },
  });
  startFakeMain(fake.api);
  const { wireChatEvents } = await import('../../renderer/src/bridge/chat-actions');
  wireChatEvents();
  const { NotesPanel } = await import('../../renderer/src/features/chat/notes-panel');
  render(<NotesPanel project="/p" sessionId="s1" />);
  return { fake, writes };
}

afterEach(cleanup);

// jsdom lays nothing out: CodeMirror's measuring of text ranges gets empty rectangles, as in a hidden page.
Range.prototype.getClientRects ??= () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect(0, 0, 0, 0);

/** The notes editor's CodeMirror view: tests change its text with a transaction, as typing does. */
function editorView(): EditorView {
  const content = screen.getByLabelText('Session notes text');
  const view = EditorView.findFromDOM(content);
  if (!view) throw new Error('no editor');
  return view;
}

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

  it('reads as notes: instructions only name the empty sections, notes run on after an instruction stand alone', async () => {
    await mount(notes('# Session Title\n_A short title_\nFix the login\n\n# Current State\n_What is being worked on_Testing on Safari.\n\n# Workflow\n_The commands_\n'));
    expect(await screen.findByText('Testing on Safari.')).toBeTruthy();
    expect(screen.getByText('Fix the login')).toBeTruthy();
    expect(screen.queryByText(/What is being worked on/)).toBeNull();
    expect(screen.getByText(/Not written yet: Workflow/)).toBeTruthy();
  });

  it('saves the user’s edit by itself, against the version it started from', async () => {
    const { writes } = await mount(notes('# Worklog\n- one\n'));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const view = editorView();
    act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: '- two\n' } }));
    await waitFor(() => expect(writes).toEqual([{ text: '# Worklog\n- one\n- two\n', baseHash: 'sha256:16' }]), { timeout: 3_000 });
  });

  it('merges an update that arrived while the user was editing when it touches other lines', async () => {
    const { fake, writes } = await mount(notes('# Worklog\n_log_\n- one\n\n# Learnings\n_what worked_\n'));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const view = editorView();
    act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: 'mine\n' } }));
    act(() => fake.emit('notes:did-change', notes('# Worklog\n_log_\n- one\n- from the updater\n\n# Learnings\n_what worked_\n')));
    await waitFor(() => expect(writes.at(-1)?.text).toBe('# Worklog\n_log_\n- one\n- from the updater\n\n# Learnings\n_what worked_\nmine\n'), {
      timeout: 3_000,
    });
    expect(writes.at(-1)?.baseHash).toBe(notes('# Worklog\n_log_\n- one\n- from the updater\n\n# Learnings\n_what worked_\n').hash);
  });

  it('shows both texts when the update touches the same line, side by side once opened wide, and writes nothing until the user chooses', async () => {
    const { fake, writes } = await mount(notes('# Worklog\n- one\n'));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const view = editorView();
    act(() => view.dispatch({ changes: { from: view.state.doc.length - 1, insert: ' mine' } }));
    act(() => fake.emit('notes:did-change', notes('# Worklog\n- one theirs\n')));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('same lines');
    // In the panel, one above the other; side by side only in the wide dialog.
    expect(alert.querySelector('dd.mine')!.textContent).toBe('- one mine');
    expect(alert.querySelector('dd.theirs')!.textContent).toBe('- one theirs');
    expect(screen.queryByLabelText('Your notes (editable)')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open wide to combine…' }));
    const wide = screen.getByRole('dialog', { name: 'Your notes and the update' });
    expect(screen.getByLabelText('Your notes (editable)').textContent).toContain('- one mine');
    expect(screen.getByLabelText('The update').textContent).toContain('- one theirs');
    await userEvent.click(within(wide).getByRole('button', { name: 'Back to the panel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await new Promise((r) => setTimeout(r, 900));
    expect(writes).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Keep my version' }));
    await waitFor(() => expect(writes).toEqual([{ text: '# Worklog\n- one mine\n', baseHash: notes('# Worklog\n- one theirs\n').hash }]));
  });

  it('explains when the notes will start, before there are any', async () => {
    await mount(notes('', { exists: false, hash: null }));
    expect(await screen.findByText(/Notes start once the conversation has some substance/)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Edit' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says an incognito conversation keeps no notes, instead of when they will start, and never asks for them', async () => {
    const fake = createFakeApi({
      'chat:new-incognito-session': ({ project }) => ({
        incognito: true,
        projectPath: project,
        sessionId: 's1',
        title: 'New conversation',
        items: [],
        phase: 'idle',
        error: null,
        context: { used: 0, threshold: 100_000, warning: false },
      }),
      'notes:read': () => notes('', { exists: false, hash: null }),
    });
    startFakeMain(fake.api);
    const { newIncognitoSession } = await import('../../renderer/src/features/memory-controls/incognito');
    expect(await newIncognitoSession('/p')).toBe('s1');
    const { NotesPanel } = await import('../../renderer/src/features/chat/notes-panel');
    render(<NotesPanel project="/p" sessionId="s1" />);
    expect(screen.getByText(/An incognito conversation keeps no session notes/)).toBeTruthy();
    expect(screen.queryByText(/Notes start once/)).toBeNull();
    // Nothing to edit: no Edit button that could never be used.
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(fake.calls.filter((c) => c.channel === 'notes:read')).toEqual([]);
  });
});
