import { useEffect, useRef, useState } from 'react';
import type { SortColumn } from './table-rows';

/** A column the chooser can show or hide; the memory itself (name and description) is always shown. */
export type OptionalColumn = Exclude<SortColumn, 'name'>;

export interface ColumnSpec {
  id: OptionalColumn;
  label: string;
  /** Its grid track: fixed widths in em for short values, a share of the rest for text. */
  width: string;
  number?: boolean;
}

export const OPTIONAL_COLUMNS: ColumnSpec[] = [
  { id: 'type', label: 'Type', width: '6em' },
  { id: 'scope', label: 'Scope', width: '5em' },
  { id: 'project', label: 'Project', width: 'minmax(7em, 0.5fr)' },
  { id: 'lastUsed', label: 'Last used', width: '7em' },
  { id: 'timesUsed', label: 'Times used', width: '4.5em', number: true },
  { id: 'validUntil', label: 'Valid until', width: '7.5em' },
  { id: 'modified', label: 'Last changed', width: '7em' },
  { id: 'tokens', label: 'Tokens', width: '4.5em', number: true },
  { id: 'origin', label: 'Origin', width: 'minmax(8em, 0.6fr)' },
];

/**
 * Shown until the user chooses: what fits beside the vault's sidebars at 1024 px without scrolling
 * sideways (docs/memory-upkeep.md#the-memory-table). Scope, project and expiry still show as marks on
 * the memory while their columns are hidden.
 */
export const DEFAULT_COLUMNS: readonly OptionalColumn[] = ['type', 'lastUsed', 'timesUsed'];

const STORAGE_KEY = 'strata.memoryTable.columns';

function readColumns(): OptionalColumn[] {
  try {
    const value: unknown = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) ?? 'null');
    if (!Array.isArray(value)) return [...DEFAULT_COLUMNS];
    return OPTIONAL_COLUMNS.map((c) => c.id).filter((id) => value.includes(id));
  } catch {
    return [...DEFAULT_COLUMNS];
  }
}

/** The columns chosen, kept in localStorage; a missing or damaged entry means the defaults. */
export function useChosenColumns(): [OptionalColumn[], (id: OptionalColumn, on: boolean) => void, () => void] {
  const [shown, setShown] = useState<OptionalColumn[]>(readColumns);
  const save = (next: OptionalColumn[] | null) => {
    try {
      if (next === null) globalThis.localStorage?.removeItem(STORAGE_KEY);
      else globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage full or refused: the choice holds for this session only.
    }
    setShown(next ?? [...DEFAULT_COLUMNS]);
  };
  const toggle = (id: OptionalColumn, on: boolean) => save(OPTIONAL_COLUMNS.map((c) => c.id).filter((c) => (c === id ? on : shown.includes(c))));
  return [shown, toggle, () => save(null)];
}

/** "Columns": a menu of checkboxes; Escape or a click elsewhere closes it. */
export function ColumnChooser({ shown, toggle, reset }: { shown: readonly OptionalColumn[]; toggle: (id: OptionalColumn, on: boolean) => void; reset: () => void }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const away = (e: PointerEvent) => {
      if (ref.current?.open && !ref.current.contains(e.target as Node)) ref.current.open = false;
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, []);
  const close = (e: React.KeyboardEvent) => {
    if (e.key !== 'Escape' || !ref.current?.open) return;
    e.stopPropagation();
    ref.current.open = false;
    ref.current.querySelector('summary')?.focus();
  };
  return (
    <details className="column-chooser" ref={ref} onKeyDown={close}>
      <summary className="button secondary">Columns</summary>
      <fieldset className="column-menu">
        <legend>Columns shown</legend>
        {OPTIONAL_COLUMNS.map((c) => (
          <label key={c.id} className="row small">
            <input type="checkbox" checked={shown.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />
            {c.label}
          </label>
        ))}
        <button type="button" className="link small" onClick={reset}>
          Default columns
        </button>
      </fieldset>
    </details>
  );
}
