import { observeElementRect, type Virtualizer } from '@tanstack/react-virtual';
import type { KeyboardEvent } from 'react';

/**
 * What the app's long lists share (the vault tree, the memory table): fixed row heights, so no row is
 * measured and scrolling through 10,000 never reflows, and arrow keys that reach rows not drawn yet.
 */

/** A list not laid out yet (0 high: hidden, or a test DOM) draws a screenful rather than nothing. */
export const observeRect: typeof observeElementRect<HTMLDivElement> = (instance, cb) =>
  observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width || 280, height: 800 }));

/**
 * Scrolls row `index` into view, then focuses what `find` returns in it once it is drawn (a few frames at
 * most: the virtualizer draws it on its next render).
 */
export function focusRow(virtualizer: Virtualizer<HTMLDivElement, Element>, index: number, find: () => HTMLElement | null | undefined): void {
  virtualizer.scrollToIndex(index, { align: 'auto' });
  const focus = (tries: number) => {
    const target = find();
    if (target) target.focus();
    else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
  };
  focus(5);
}

/** The `data-index` of the row holding the focus, or null when focus is outside the list. */
export function focusedRowIndex(event: KeyboardEvent<HTMLElement>): number | null {
  const at = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-index]');
  return at && event.currentTarget.contains(at) ? Number(at.dataset.index) : null;
}
