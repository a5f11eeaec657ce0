import type { ChangeAuthor, HistoryVersion } from '../../../../common/domain/vault';
import { formatDateTime } from '../../ui/dates';

/** Who made a change, as a person says it. */
export function authorWords(author: ChangeAuthor): string {
  switch (author.kind) {
    case 'you':
      return 'You';
    case 'agent':
      return author.label ? `The agent in “${author.label}”` : 'The agent';
    case 'extractor':
      return 'Memory extraction';
    case 'teammate':
      return author.label ? `${author.label} (team)` : 'A teammate';
    case 'outside':
      return 'An edit outside Strata';
    case 'consolidation':
      return 'Memory tidy-up';
    case 'restore':
      return 'A restore';
  }
}

/**
 * What a kept version is, in words: who wrote that text (its author, when recorded — versions saved
 * before authors were kept have none) and what replaced it ("An edit outside Strata · before your edit").
 */
export function versionWords(version: HistoryVersion): string {
  const before = beforeWords(version.reason);
  return version.author ? `${authorWords(version.author)} · ${lowerFirst(before)}` : before;
}

/** The change that replaced a kept version, from the reason it was snapshotted under. */
function beforeWords(reason: string): string {
  switch (reason) {
    case 'autosave':
    case 'edit':
      return 'Before your edit';
    case 'before-external-change':
      return 'Before a change made outside Strata';
    case 'before-restore':
      return 'Before a restore';
    case 'delete':
      return 'Before it was deleted';
    case 'before-external-delete':
      return 'Before it was deleted outside Strata';
    case 'index-edit':
      return 'Before an index update';
    case 'undo-delete':
      return 'Before it was brought back';
    case 'health-fix':
      return 'Before a Health fix';
    case 'health-undo':
      return 'Before a Health fix was undone';
    default:
      return 'An earlier version';
  }
}

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);

/** "Today, 14:05", "Yesterday, 09:12", else the date and time, in the user's locale. */
export function whenWords(iso: string, now = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return 'At an unknown time';
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const day = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((day(now) - day(at)) / 86_400_000);
  if (days === 0) return `Today, ${time}`;
  if (days === 1) return `Yesterday, ${time}`;
  return formatDateTime(at);
}
