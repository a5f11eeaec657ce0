import { useEffect, useRef, useState } from 'react';
import type { SessionNotes } from '../../../../common/domain/chat';
import { merge3 } from '../../../../common/text/merge3';
import { api } from '../../bridge';
import { useStore } from '../../store';
import { CodeEditor } from './code-editor';
import { NotesClash } from './notes-clash';
import { notesPlaceholders } from './notes-placeholders';
import { AUTOSAVE_DELAY_MS } from '../../bridge/vault-autosave';
import { keepNotesDraft, readNotesDraft } from './notes-draft';

type Status = { kind: 'saved' | 'pending' | 'saving' } | { kind: 'failed'; message: string };
/** The version an edit is typed on. */
type Base = Pick<SessionNotes, 'hash' | 'text'>;

const RETRY_MS = 3_000;

/**
 * Where the editor starts: the notes as they are, or the user's unsaved edit kept from last time —
 * merged with the notes now when that is clean, else beside them (`theirs`).
 */
function startFrom(notes: SessionNotes): { base: Base; text: string; theirs: SessionNotes | null } {
  const kept = readNotesDraft(notes.sessionId);
  if (!kept || kept.text === notes.text) return { base: notes, text: notes.text, theirs: null };
  if (kept.baseHash === notes.hash) return { base: notes, text: kept.text, theirs: null };
  const merged = merge3(kept.baseText, kept.text, notes.text);
  if (merged.clean) return { base: notes, text: merged.text, theirs: null };
  return { base: { hash: kept.baseHash, text: kept.baseText }, text: kept.text, theirs: notes };
}

/**
 * The session notes in the same editor as memories, saved by themselves like them. The background
 * updater keeps writing the notes: its change is merged with the user's (three-way, against the
 * version the edit was typed on; main merges the same way when a save arrives after an update) when
 * they touch different lines, else both are shown side by side. Until a save lands the edit is kept
 * in the browser's storage (notes-draft.ts): closing the panel, a reload or a clash loses nothing.
 */
export function NotesEditor({ project, notes }: { project: string; notes: SessionNotes }) {
  const sessionId = notes.sessionId;
  const [start] = useState(() => startFrom(notes));
  const [base, setBase] = useState<Base>(start.base);
  const [text, setText] = useState(start.text);
  const [revision, setRevision] = useState(0);
  const [theirs, setTheirs] = useState<SessionNotes | null>(start.theirs);
  const [status, setStatus] = useState<Status>({ kind: start.text === notes.text ? 'saved' : 'pending' });
  const live = useRef({ base, text, theirs });
  live.current = { base, text, theirs };
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  /** The draft in storage follows the text: kept while it differs from its base, dropped once saved. */
  const keep = (from: Base, mine: string) =>
    keepNotesDraft(sessionId, mine === from.text && !live.current.theirs ? null : { baseHash: from.hash, baseText: from.text, text: mine });

  const adopt = (next: Base, nextText: string) => {
    const changed = nextText !== live.current.text;
    live.current = { ...live.current, base: next, text: nextText };
    setBase(next);
    keep(next, nextText);
    if (changed) {
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
    const result = await api.invoke['notes:write']({ project, sessionId, text: sent, baseHash: from.hash });
    if (result.ok) {
      const saved = result.value;
      useStore.getState().setNotes(saved);
      const typed = live.current.text;
      // Main may have merged an update into what was sent; what was typed meanwhile goes on top of that.
      const next = typed === sent ? { clean: true as const, text: saved.text } : merge3(sent, typed, saved.text);
      if (!next.clean) {
        live.current = { ...live.current, base: saved };
        setBase(saved);
        setTheirs(saved);
        keep(saved, typed);
        setStatus({ kind: 'pending' });
        return;
      }
      adopt(saved, next.text);
      if (next.text === saved.text) setStatus({ kind: 'saved' });
      else edit(next.text);
      return;
    }
    if (result.error.code === 'conflict') {
      // The same lines changed on both sides: the version there now is shown beside the edit (the effect below).
      const fresh = await api.invoke['notes:read']({ project, sessionId });
      if (fresh.ok) {
        useStore.getState().setNotes(fresh.value);
        if (fresh.value.hash !== live.current.base.hash && !live.current.theirs) meet(fresh.value);
      }
      return;
    }
    setStatus({ kind: 'failed', message: `Not saved yet: ${result.error.message}. Your text is kept here and Strata keeps trying.` });
    timer.current = setTimeout(() => void save(), RETRY_MS);
  };

  const edit = (next: string) => {
    live.current = { ...live.current, text: next };
    setText(next);
    keep(live.current.base, next);
    if (live.current.theirs) return;
    setStatus((s) => (s.kind === 'failed' ? s : { kind: 'pending' }));
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
  };

  /** Another version of the notes arrived (the updater, another window): merged with the edit, or shown beside it. */
  const meet = (other: SessionNotes) => {
    const { base: from, text: mine } = live.current;
    if (mine === from.text) return adopt(other, other.text);
    const merged = merge3(from.text, mine, other.text);
    if (merged.clean) {
      adopt(other, merged.text);
      if (merged.text !== other.text) edit(merged.text);
      else setStatus({ kind: 'saved' });
    } else {
      live.current = { ...live.current, theirs: other };
      setTheirs(other);
      keep(from, mine);
    }
  };

  useEffect(() => {
    const { base: from, theirs: waiting } = live.current;
    if (notes.hash === from.hash || waiting) return;
    meet(notes);
    // Only a new version of the notes matters here.
  }, [notes.hash]);

  // An edit kept from last time that merged cleanly is saved at once.
  useEffect(() => {
    if (!start.theirs && start.text !== notes.text) edit(start.text);
  }, []);

  // Leaving (panel hidden, another conversation, the page going away): what waits is sent at once; main
  // merges it with an update that came meanwhile. A clash stays in the kept draft for the next time.
  useEffect(() => {
    const flush = () => {
      const { base: from, text: mine, theirs: waiting } = live.current;
      if (waiting || mine === from.text) return;
      void api.invoke['notes:write']({ project, sessionId, text: mine, baseHash: from.hash }).then((r) => {
        if (r.ok && readNotesDraft(sessionId)?.text === mine) keepNotesDraft(sessionId, null);
      });
    };
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      if (timer.current) clearTimeout(timer.current);
      flush();
    };
  }, [project, sessionId]);

  const resolve = async (choice: 'mine' | 'theirs' | 'both') => {
    const other = live.current.theirs;
    if (!other) return;
    if (choice === 'both') {
      const merged = merge3(live.current.base.text, live.current.text, other.text);
      if (!merged.clean) edit(merged.chunks.map((c) => (c.kind === 'same' ? c.text : joinLines(c.mine, c.theirs))).join(''));
      choice = 'mine';
    }
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
        <NotesClash base={base.text} mine={text} theirs={theirs.text} theirsKey={theirs.hash ?? 'new'} onEdit={edit} onResolve={(c) => void resolve(c)} />
      ) : (
        <CodeEditor
          docKey={sessionId}
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

/** Two versions of the same lines, one after the other (a line break between when needed). */
const joinLines = (a: string, b: string) => (a === '' || a.endsWith('\n') ? a + b : `${a}\n${b}`);
