import { useEffect, useRef } from 'react';
import type { HealthFixKind, HealthFixResult } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { showFile } from '../../bridge/vault-actions';
import { makeRoom, TEAM_ROOM } from './make-room';

/** What the last fix did, shown above the problems until the next one: its words, its Undo, its next step. */
export interface FixNote {
  text: string;
  tone: 'ok' | 'warning';
  undoToken?: string;
  /** The memory folder whose index is full: the note offers what makes room in it (`makeRoom`). */
  tidy?: string | null;
  /** That index is the team's. */
  team?: boolean;
}

const n = (x: number) => x.toLocaleString();
const plural = (x: number, one: string, many: string) => `${n(x)} ${x === 1 ? one : many}`;

const done: Record<HealthFixKind, (x: number) => string> = {
  frontmatter: (x) => `Repaired the header of ${plural(x, 'memory', 'memories')}.`,
  'broken-pointer': (x) => `Removed ${plural(x, 'index line', 'index lines')} that pointed at nothing.`,
  'missing-from-index': (x) => `Added ${plural(x, 'memory', 'memories')} to the index.`,
  expired: (x) => `Renewed ${plural(x, 'memory', 'memories')}.`,
  'review-due': (x) => `Marked ${plural(x, 'memory', 'memories')} as still true.`,
  stale: (x) => `Marked ${plural(x, 'memory', 'memories')} as still true.`,
};

/** The note for a fix's result (docs/memory.md#vault-upkeep): what was done, what did not fit in the index and why. */
export function fixNote(kind: HealthFixKind, result: HealthFixResult, projectSlug: string | null, team = false): FixNote {
  const room = team ? TEAM_ROOM : 'Tidy memory to merge memories and make room.';
  const parts: string[] = [];
  if (result.fixed > 0 || !result.didNotFit) parts.push(done[kind](result.fixed));
  const over = result.didNotFit;
  if (over) {
    const caps = `the agent reads only the first ${n(over.maxLines)} lines and ${n(over.maxChars)} characters of MEMORY.md`;
    const cap = over.limit === 'lines' ? `${n(over.maxLines)} lines` : `${n(over.maxChars)} characters`;
    parts.push(
      result.fixed > 0
        ? `${plural(over.count, 'memory', 'memories')} did not fit: ${caps}, so more lines would never be seen. ${room}`
        : `None added: MEMORY.md is full — another line would pass the ${cap} the agent reads. ${room}`,
    );
  }
  if (result.failed.length > 0) {
    const first = result.failed[0]!;
    parts.push(`Could not fix ${first.path.split('/').pop()}: ${first.reason}${result.failed.length > 1 ? ` (and ${n(result.failed.length - 1)} more)` : ''}.`);
  }
  return {
    text: parts.join(' '),
    tone: over || result.failed.length > 0 ? 'warning' : 'ok',
    ...(result.undoToken ? { undoToken: result.undoToken } : {}),
    ...(over ? { tidy: projectSlug, team } : {}),
  };
}

/** Takes the last fix back whole; the note says what came back. */
export async function undoFix(undoToken: string): Promise<FixNote> {
  const r = await api.invoke['vault:health-undo']({ undoToken });
  if (!r.ok) return { text: r.error.message, tone: 'warning' };
  const { restored, failed } = r.value;
  if (failed.length === 0) return { text: `Undone: ${plural(restored, 'file is', 'files are')} as before the fix.`, tone: 'ok' };
  const first = failed[0]!;
  return { text: `Undone for ${plural(restored, 'file', 'files')}. ${first.path.split('/').pop()}: ${first.reason}${failed.length > 1 ? ` (and ${n(failed.length - 1)} more)` : ''}.`, tone: 'warning' };
}

export function FixNoteView({ note, busy, onUndo }: { note: FixNote; busy: boolean; onUndo: () => void }) {
  const tidy = note.tidy !== undefined ? makeRoom(note.tidy, note.team ?? false, showFile) : null;
  // The button clicked may be gone with the rows it fixed: the keyboard goes on from the result (Tab reaches Undo).
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus({ preventScroll: true }), [note]);
  return (
    <div ref={ref} tabIndex={-1} className={`health-note ${note.tone}`} role="status">
      <p>{note.text}</p>
      {(note.undoToken || tidy) && (
        <div className="health-note-actions">
          {note.undoToken && (
            <button type="button" className="button secondary small" disabled={busy} onClick={onUndo}>
              Undo
            </button>
          )}
          {/* Without its project open, the section below says how to get to the tidy-up. */}
          {tidy && (
            <button type="button" className="button secondary small" disabled={busy} onClick={tidy.run}>
              {tidy.label}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
