import { useEffect, useRef, useState } from 'react';
import type { SessionNotes } from '../../../../common/domain/chat';
import { merge3 } from '../../../../common/text/merge3';
import { api } from '../../bridge';
import { useStore } from '../../store';
import { CodeEditor } from './code-editor';
import { MergeEditor } from '../conflicts/merge-editor';
import { notesPlaceholders } from './notes-placeholders';
import { AUTOSAVE_DELAY_MS } from '../../bridge/vault-autosave';

type Status = { kind: 'saved' | 'pending' | 'saving' } | { kind: 'failed'; message: string };

const RETRY_MS = 3_000;

/**
 * The session notes in the same editor as memories, saved by themselves like them. The background
 * updater keeps writing the notes: its change is merged with the user's (three-way, against the
 * version the editor started from) when they touch different lines, else both are shown side by side.
 */
export function NotesEditor({ project, notes }: { project: string; notes: SessionNotes }) {
  const [base, setBase] = useState(notes);
  const [text, setText] = useState(notes.text);
  const [revision, setRevision] = useState(0);
  const [theirs, setTheirs] = useState<SessionNotes | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'saved' });
  const live = useRef({ base, text, theirs });
  live.current = { base, text, theirs };
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const adopt = (next: SessionNotes, nextText: string) => {
    live.current = { ...live.current, base: next, text: nextText };
    setBase(next);
    if (nextText !== text) {
      setText(nextText);
      setRevision((r) => r + 1);
    }
  };

  const save = async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const { base: from, text: sent, theirs: waiting } = live.current;
    if (waiting || sent === from.text) return;
    setStatus({ kind: 'saving' });
    const result = await api.invoke['notes:write']({ project, sessionId: notes.sessionId, text: sent, baseHash: from.hash });
    if (result.ok) {
      useStore.getState().setNotes(result.value);
      live.current = { ...live.current, base: result.value };
      setBase(result.value);
      setStatus({ kind: live.current.text === sent ? 'saved' : 'pending' });
      return;
    }
    if (result.error.code === 'conflict') {
      // The updater wrote meanwhile: its version arrives as an event and is merged there; read it now in case.
      const fresh = await api.invoke['notes:read']({ project, sessionId: notes.sessionId });
      if (fresh.ok) useStore.getState().setNotes(fresh.value);
      return;
    }
    setStatus({ kind: 'failed', message: `Not saved yet: ${result.error.message}. Your text is kept here and Strata keeps trying.` });
    timer.current = setTimeout(() => void save(), RETRY_MS);
  };

  const edit = (next: string) => {
    live.current = { ...live.current, text: next };
    setText(next);
    if (live.current.theirs) return;
    setStatus((s) => (s.kind === 'failed' ? s : { kind: 'pending' }));
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
  };

  // The updater (or another window) changed the notes.
  useEffect(() => {
    const { base: from, text: mine, theirs: waiting } = live.current;
    if (notes.hash === from.hash || waiting) return;
    if (mine === from.text) return adopt(notes, notes.text);
    const merged = merge3(from.text, mine, notes.text);
    if (merged.clean) {
      adopt(notes, merged.text);
      if (merged.text !== notes.text) edit(merged.text);
    } else {
      setTheirs(notes);
    }
    // Only a new version of the notes matters here.
  }, [notes.hash]);

  // Leaving (panel hidden, another conversation, the page going away): what waits is sent at once.
  useEffect(() => {
    const flush = () => {
      const { base: from, text: mine, theirs: waiting } = live.current;
      if (!waiting && mine !== from.text) void api.invoke['notes:write']({ project, sessionId: notes.sessionId, text: mine, baseHash: from.hash });
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      if (timer.current) clearTimeout(timer.current);
      flush();
    };
  }, [project, notes.sessionId]);

  const resolve = async (choice: 'mine' | 'theirs') => {
    const other = live.current.theirs;
    if (!other) return;
    setTheirs(null);
    live.current = { ...live.current, theirs: null };
    if (choice === 'theirs') {
      adopt(other, other.text);
      setStatus({ kind: 'saved' });
      return;
    }
    const mine = live.current.text;
    live.current = { ...live.current, base: other };
    setBase(other);
    setRevision((r) => r + 1);
    edit(mine);
    await save();
  };

  return (
    <div className="notes-edit">
      {status.kind === 'failed' ? (
        <p className="banner error small" role="alert">
          {status.message}
        </p>
      ) : (
        <span className="muted small" role="status">
          {status.kind === 'saving' ? 'Saving…' : status.kind === 'pending' ? 'Edited' : 'Saved'}
        </span>
      )}
      {theirs ? (
        <div className="banner warning external-change" role="alert">
          <p>
            <strong>The notes were updated on the same lines you were editing.</strong> Yours are on the left, the update on the right;
            take what you want from the right, then choose.
          </p>
          <MergeEditor docKey={theirs.hash ?? 'new'} mine={text} theirs={theirs.text} onResult={(t) => edit(t)} />
          <div className="row">
            <button type="button" className="button secondary" onClick={() => void resolve('theirs')}>
              Use the update
            </button>
            <button type="button" className="button primary" onClick={() => void resolve('mine')}>
              Keep my version
            </button>
          </div>
        </div>
      ) : (
        <CodeEditor
          docKey={notes.sessionId}
          syncKey={String(revision)}
          value={text}
          label="Session notes text"
          onChange={edit}
          onSave={() => void save()}
          extensions={[notesPlaceholders]}
        />
      )}
    </div>
  );
}
