import { useEffect, useMemo, useRef, useState } from 'react';

export interface PickerItem {
  id: string;
  label: string;
  detail?: string;
  /** The keyboard shortcut that does the same, shown at the right (`Ctrl+1`). */
  shortcut?: string;
  /** Why it cannot run now (`Nothing is running`): listed after the ones that can, greyed, with this reason. */
  disabled?: string;
  run(): void;
}

/** Ranks items by a simple subsequence match; contiguous and early matches first. */
function score(query: string, text: string): number | null {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  if (!q) return 0;
  const direct = t.indexOf(q);
  if (direct >= 0) return direct;
  let at = 0;
  let gaps = 0;
  for (const ch of q) {
    const found = t.indexOf(ch, at);
    if (found < 0) return null;
    gaps += found - at;
    at = found + 1;
  }
  return 100 + gaps;
}

/** A keyboard-first list with a filter box: the quick switcher and the command palette. */
export function Picker({ title, placeholder, items, onClose }: { title: string; placeholder: string; items: PickerItem[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const shown = useMemo(
    () =>
      items
        .map((item) => ({ item, s: score(query, `${item.label} ${item.detail ?? ''}`) }))
        .filter((x): x is { item: PickerItem; s: number } => x.s !== null)
        // What can run now comes first, so Enter on a typed filter never lands on a greyed-out command.
        .sort((a, b) => Number(Boolean(a.item.disabled)) - Number(Boolean(b.item.disabled)) || a.s - b.s)
        .slice(0, 50)
        .map((x) => x.item),
    [items, query],
  );
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const choose = (item: PickerItem | undefined) => {
    if (!item || item.disabled) return;
    onClose();
    item.run();
  };
  return (
    <div className="modal-backdrop top" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal picker" role="dialog" aria-modal="true" aria-label={title}>
        <input
          className="input full"
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls="picker-list"
          aria-activedescendant={shown[active] ? `picker-${shown[active].id}` : undefined}
          aria-label={title}
          placeholder={placeholder}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => Math.min(shown.length - 1, a + 1));
            else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
            else if (e.key === 'Enter') choose(shown[active]);
            else if (e.key === 'Escape') onClose();
            else return;
            e.preventDefault();
          }}
        />
        <ul id="picker-list" role="listbox" className="picker-list" ref={listRef}>
          {shown.length === 0 && <li className="muted small">No match.</li>}
          {shown.map((item, i) => (
            <li
              key={item.id}
              id={`picker-${item.id}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              aria-disabled={item.disabled ? true : undefined}
              className={[i === active && 'active', item.disabled && 'disabled'].filter(Boolean).join(' ') || undefined}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(item);
              }}
            >
              <span>{item.label}</span>
              {(item.disabled ?? item.detail) && <span className="muted small">{item.disabled ?? item.detail}</span>}
              {item.shortcut && <kbd>{item.shortcut}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
