/**
 * Every date a user reads, in one locale-aware format: the user's locale, a medium date ("Dec 5, 2026"
 * in US English, "5 Dec 2026" in British), with a short time where the moment matters. Never an ISO day
 * beside a numeric one.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` day is that calendar day where the user is, not midnight UTC. */
function toDate(when: string | number | Date): Date {
  if (typeof when === 'string') {
    const day = DAY.exec(when);
    if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
  }
  return new Date(when);
}

/** "Dec 5, 2026". */
export function formatDay(when: string | number | Date): string {
  const date = toDate(when);
  return Number.isNaN(date.getTime()) ? String(when) : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** "Dec 5, 2026, 9:40 AM". */
export function formatDateTime(when: string | number | Date): string {
  const date = toDate(when);
  return Number.isNaN(date.getTime()) ? String(when) : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
