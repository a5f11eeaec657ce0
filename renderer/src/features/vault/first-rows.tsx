import { useState } from 'react';

/** A long list of findings shows its first rows and a way to the rest, so thousands stay cheap to draw. */
export function FirstRows<T>({ items, render, first = 50 }: { items: readonly T[]; render: (item: T) => React.ReactNode; first?: number }) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, first);
  return (
    <>
      {shown.map(render)}
      {items.length > shown.length && (
        <li>
          <button type="button" className="link" onClick={() => setAll(true)}>
            Show all {items.length.toLocaleString()}
          </button>
        </li>
      )}
    </>
  );
}
