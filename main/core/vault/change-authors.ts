import type { ChangeAuthor } from '../../../common/domain/vault.js';

/**
 * Who is about to write a file the vault watches, told by the writer (the agent's and the
 * extractor's memory-write hook, a team pull) and taken by the vault when the watcher reports the
 * change, so History can say "the agent in …" rather than "outside Strata". Keyed by absolute path;
 * a note not taken within `TTL_MS` is forgotten (the write never happened, or was not seen).
 */
const TTL_MS = 30_000;
const notes = new Map<string, { author: ChangeAuthor; at: number }>();

export function noteChangeAuthor(absPath: string, author: ChangeAuthor, now = Date.now()): void {
  for (const [p, n] of notes) if (now - n.at > TTL_MS) notes.delete(p);
  notes.set(absPath, { author, at: now });
}

export function takeChangeAuthor(absPath: string, now = Date.now()): ChangeAuthor | null {
  const note = notes.get(absPath);
  notes.delete(absPath);
  return note && now - note.at <= TTL_MS ? note.author : null;
}
