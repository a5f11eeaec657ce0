import { fieldText, parseMemoryFile, splitFrontmatter } from './frontmatter.js';

/**
 * A memory's optional dates (docs/memory.md#freshness): `validUntil`, after which it is no longer true,
 * and `reviewOn`, when someone should check it. Top-level keys in the 2.1.88 shape, under `metadata:`
 * in the newest Claude Code's; both read as `YYYY-MM-DD` (a YAML date or a full ISO time gives its day).
 */
export interface MemoryDates {
  validUntil: string | null;
  reviewOn: string | null;
}

export type FreshnessKey = keyof MemoryDates;
export const FRESHNESS_KEYS: readonly FreshnessKey[] = ['validUntil', 'reviewOn'];

const DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;

/** `YYYY-MM-DD` of a frontmatter value, or null when it is none or not a real calendar day. */
export function dayOf(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString().slice(0, 10);
  const text = fieldText(value);
  const m = text ? DAY.exec(text) : null;
  if (!m) return null;
  const [, y, mo, d] = m as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d) ? `${y}-${mo}-${d}` : null;
}

/** The dates of a parsed frontmatter mapping, in either shape (top level wins). */
export function memoryDates(data: Record<string, unknown>): MemoryDates {
  const metadata = data.metadata !== null && typeof data.metadata === 'object' && !Array.isArray(data.metadata) ? (data.metadata as Record<string, unknown>) : {};
  return {
    validUntil: dayOf(data.validUntil) ?? dayOf(metadata.validUntil),
    reviewOn: dayOf(data.reviewOn) ?? dayOf(metadata.reviewOn),
  };
}

/** Where a memory stands on `today` (`YYYY-MM-DD`): past its valid-until day, due for review, or fine. */
export function freshnessOf(dates: MemoryDates, today: string): 'expired' | 'review-due' | null {
  if (dates.validUntil !== null && dates.validUntil < today) return 'expired';
  if (dates.reviewOn !== null && dates.reviewOn <= today) return 'review-due';
  return null;
}

/** Today's day in UTC, as the dates are compared. */
export const todayOf = (now: number): string => new Date(now).toISOString().slice(0, 10);

/**
 * The memory's text with `key` set to `day` (or removed, with null), every other line as it was: the
 * key is replaced where it stands; a new one goes where the file's shape keeps its type — under
 * `metadata:` when the file has that block, else at the top level. Null when the file has no readable
 * frontmatter to change.
 */
export function withMemoryDate(text: string, key: FreshnessKey, day: string | null): string | null {
  const parsed = parseMemoryFile(text);
  const block = splitFrontmatter(text);
  if (!block || !parsed.hasFrontmatter || parsed.frontmatterError) return null;
  if (day !== null && dayOf(day) !== day) throw new Error(`Not a day (YYYY-MM-DD): ${day}`);
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const eol = /^\uFEFF?---[^\n]*\r\n/.test(text) ? '\r\n' : '\n';
  const lines = block.yaml.replace(/\n*$/, '').split('\n').filter((l) => l !== '' || block.yaml.trim() !== '');
  const keyLine = new RegExp(`^(\\s*)${key}\\s*:`);
  const at = lines.findIndex((l) => keyLine.test(l));
  if (at !== -1) {
    const indent = keyLine.exec(lines[at]!)![1]!;
    if (day === null) lines.splice(at, 1);
    else lines[at] = `${indent}${key}: ${day}`;
  } else if (day !== null) {
    const metadata = lines.findIndex((l) => /^metadata\s*:\s*$/.test(l));
    if (metadata === -1) lines.push(`${key}: ${day}`);
    else {
      let end = metadata + 1;
      while (end < lines.length && /^\s+\S/.test(lines[end]!)) end++;
      lines.splice(end, 0, `  ${key}: ${day}`);
    }
  }
  return `${bom}---${eol}${lines.join(eol)}${eol}---${eol}${block.body}`;
}
