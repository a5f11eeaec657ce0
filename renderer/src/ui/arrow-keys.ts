import type { KeyboardEvent } from 'react';

/**
 * A keydown handler for a list container: ArrowDown / ArrowUp move focus between the elements that
 * match `selector` inside it (the file tree's rows, the search box and its results).
 */
export function arrowFocus(selector: string) {
  return (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const rows = [...e.currentTarget.querySelectorAll<HTMLElement>(selector)];
    const at = rows.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const next = rows[Math.max(0, Math.min(rows.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };
}
