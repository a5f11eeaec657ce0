/**
 * The reason the editor's autosaves are written under. Like a plain edit, an autosave replacing what the
 * same person saved moments ago keeps no snapshot of its own (history-store.ts: a burst is one entry).
 */
export const AUTOSAVE_REASON = 'autosave';
