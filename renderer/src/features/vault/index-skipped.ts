import type { IndexLineSkipped } from '../../../../common/domain/vault';
import type { Toast } from '../../store/app-slice';
import { makeRoom, TEAM_ROOM } from './make-room';

/**
 * The toast for a memory written or brought back without its MEMORY.md line, because the index is at a
 * cap the agent reads it to (docs/memory.md#memory-index): said plainly, with the tidy-up that makes
 * room, as Health's fix says it (`open` shows a vault file: the team's index). `done` leads: "Saved “Launch day”.", "Restored “Launch day”.".
 */
export function indexSkippedToast(done: string, skipped: IndexLineSkipped, open: (path: string) => void): Toast {
  const n = (x: number) => x.toLocaleString();
  const cap = skipped.limit === 'lines' ? `${n(skipped.maxLines)} lines` : `${n(skipped.maxChars)} characters`;
  const room = makeRoom(skipped.projectSlug, skipped.team, open);
  const next = skipped.team ? TEAM_ROOM : room ? 'Tidy memory to merge memories and make room.' : 'Open its project and tidy memory in the Inbox to make room.';
  return {
    text: `${done} It is not listed in ${skipped.team ? 'the team MEMORY.md' : 'MEMORY.md'}: the index is full, and the agent reads only its first ${cap}, so a line added after them would never be seen. ${next}`,
    ...(room ? { actionLabel: room.label, action: room.run } : {}),
  };
}
