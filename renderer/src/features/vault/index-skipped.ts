import type { IndexLineSkipped } from '../../../../common/domain/vault';
import type { Toast } from '../../store/app-slice';
import { tidyTarget } from './health-fix-note';

/**
 * The toast for a memory written or brought back without its MEMORY.md line, because the index is at a
 * cap the agent reads it to (docs/memory.md#memory-index): said plainly, with the tidy-up that makes
 * room, as Health's fix says it. `done` leads: "Saved “Launch day”.", "Restored “Launch day”.".
 */
export function indexSkippedToast(done: string, skipped: IndexLineSkipped): Toast {
  const n = (x: number) => x.toLocaleString();
  const cap = skipped.limit === 'lines' ? `${n(skipped.maxLines)} lines` : `${n(skipped.maxChars)} characters`;
  const tidy = tidyTarget(skipped.projectSlug);
  return {
    text: `${done} It is not listed in MEMORY.md: the index is full, and the agent reads only its first ${cap}, so a line added after them would never be seen. ${tidy ? 'Tidy memory to merge memories and make room.' : 'Open its project and tidy memory in the Inbox to make room.'}`,
    ...(tidy ? { actionLabel: 'Tidy memory in the Inbox', action: tidy } : {}),
  };
}
