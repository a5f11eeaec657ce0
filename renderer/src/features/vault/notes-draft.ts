/**
 * An edit of a session's notes that is not saved yet, with the version it was typed on: kept in the
 * browser's storage from the first keystroke until a save lands, so a panel closed, a reload or a clash
 * with the background updater never drops the user's words. The next time the notes open, the edit is
 * merged with the notes as they are then, or shown beside them (NotesEditor).
 */
export interface NotesDraft {
  baseHash: string | null;
  baseText: string;
  text: string;
}

const key = (sessionId: string) => `strata.notes-draft.${sessionId}`;

const isDraft = (v: unknown): v is NotesDraft =>
  typeof v === 'object' &&
  v !== null &&
  (typeof (v as NotesDraft).baseHash === 'string' || (v as NotesDraft).baseHash === null) &&
  typeof (v as NotesDraft).baseText === 'string' &&
  typeof (v as NotesDraft).text === 'string';

export function readNotesDraft(sessionId: string): NotesDraft | null {
  try {
    const raw = localStorage.getItem(key(sessionId));
    const parsed: unknown = raw === null ? null : JSON.parse(raw);
    return isDraft(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Keeps the draft, or drops it (`null`: saved, or the user took the other version). */
export function keepNotesDraft(sessionId: string, draft: NotesDraft | null): void {
  try {
    if (draft === null) localStorage.removeItem(key(sessionId));
    else localStorage.setItem(key(sessionId), JSON.stringify(draft));
  } catch {
    // Storage full or refused: the text stays on screen for this visit.
  }
}
