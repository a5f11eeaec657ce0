import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { openFile } from '../../bridge/vault-actions';
import { focusedRowIndex, focusRow, observeRect } from '../../ui/virtual-rows';
import { ConversationLink } from '../vault/conversation-link';
import { daysAgo } from '../vault/memory-use';
import { formatDateTime, formatDay } from '../../ui/dates';
import { OPTIONAL_COLUMNS, type OptionalColumn } from './table-columns';
import { originText, type Origin, type Row, type SortColumn } from './table-rows';

/** Fixed heights (the CSS keeps them; ui/virtual-rows.ts): the memory's name and a line of its description. */
const ROW_PX = 48;
const HEADER_PX = 40;

export interface GridProps {
  rows: readonly Row[];
  columns: readonly OptionalColumn[];
  /** All projects shown: a memory says its project when the Project column is hidden. */
  allProjects: boolean;
  chosen: ReadonlySet<string>;
  toggle: (path: string, on: boolean) => void;
  selectAll: (on: boolean) => void;
  sort: { by: SortColumn; desc: boolean };
  sortBy: (column: SortColumn) => void;
}

/**
 * The memories as a table whose rows are drawn only near the viewport (like the vault tree), so 10,000
 * open and sort as fast as ten. ArrowUp / ArrowDown / Home / End move between rows, keeping to the same
 * control (the tick box or the name); Space ticks; Enter opens.
 */
export function TableGrid({ rows, columns, allProjects, chosen, toggle, selectAll, sort, sortBy }: GridProps) {
  const specs = OPTIONAL_COLUMNS.filter((c) => columns.includes(c.id));
  const template = ['2.25em', 'minmax(10em, 1fr)', ...specs.map((c) => c.width)].join(' ');
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    getItemKey: (i) => rows[i]!.meta.path,
    observeElementRect: observeRect,
    scrollPaddingStart: HEADER_PX,
    overscan: 8,
  });
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
    const at = focusedRowIndex(event);
    if (at === null) return;
    const step = { ArrowDown: 1, ArrowUp: -1, Home: -rows.length, End: rows.length }[event.key]!;
    const next = Math.max(0, Math.min(rows.length - 1, at + step));
    const control = (document.activeElement as HTMLElement).dataset.control ?? 'open';
    event.preventDefault();
    const body = event.currentTarget;
    focusRow(virtualizer, next, () => body.querySelector<HTMLElement>(`[data-index="${next}"] [data-control="${control}"]`));
  };
  const header = (id: SortColumn, label: string, number = false) => (
    <div key={id} role="columnheader" className={number ? 'number' : undefined} aria-sort={sort.by === id ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        className="link sort"
        onClick={() => {
          // A new order reads from its top, not from wherever the last one was scrolled to.
          sortBy(id);
          scroller.current?.scrollTo({ top: 0 });
        }}
      >
        {label}
        <span aria-hidden="true">{sort.by === id ? (sort.desc ? ' ▾' : ' ▴') : ''}</span>
      </button>
    </div>
  );
  const all = rows.length > 0 && rows.every((r) => chosen.has(r.meta.path));
  return (
    <div className="table-scroll" ref={scroller} onKeyDown={onKeyDown}>
      <div role="table" aria-label="Memories" aria-rowcount={rows.length + 1} className="memory-table" style={{ '--columns': template } as React.CSSProperties}>
        <div role="rowgroup" className="table-head">
          <div role="row" aria-rowindex={1} className="table-row" style={{ height: HEADER_PX }}>
            <div role="columnheader">
              <input type="checkbox" aria-label="Select all shown" checked={all} onChange={(e) => selectAll(e.target.checked)} />
            </div>
            {header('name', 'Memory')}
            {specs.map((c) => header(c.id, c.label, c.number))}
          </div>
        </div>
        <div role="rowgroup" className="table-body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const r = rows[item.index]!;
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                data-index={item.index}
                data-selected={chosen.has(r.meta.path) || undefined}
                className="table-row"
                style={{ height: ROW_PX, transform: `translateY(${item.start}px)` }}
              >
                <div role="cell">
                  <input type="checkbox" data-control="select" aria-label={`Select ${r.name}`} checked={chosen.has(r.meta.path)} onChange={(e) => toggle(r.meta.path, e.target.checked)} />
                </div>
                <MemoryCell row={r} columns={columns} allProjects={allProjects} />
                {specs.map((c) => (
                  <div key={c.id} role="cell" className={c.number ? 'number' : undefined}>
                    <Cell row={r} column={c.id} />
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

/** The name (opening the memory) over its description, with marks for what hidden columns would say. */
function MemoryCell({ row: r, columns, allProjects }: { row: Row; columns: readonly OptionalColumn[]; allProjects: boolean }) {
  const project = allProjects && !columns.includes('project') ? r.projectLabel : '';
  return (
    <div role="cell" className="memory-cell">
      <span className="memory-name">
        <button type="button" className="link" data-control="open" title={r.meta.path} onClick={() => void openFile(r.meta.path)}>
          {r.name}
        </button>
        {r.scope === 'team' && !columns.includes('scope') && <span className="badge">team</span>}
        {r.expired && !columns.includes('validUntil') && <span className="badge warn">expired</span>}
      </span>
      <span className="memory-description muted" title={r.description}>
        {project && <span className="memory-project">{project} · </span>}
        {r.description}
      </span>
    </div>
  );
}

function Cell({ row: r, column }: { row: Row; column: OptionalColumn }) {
  switch (column) {
    case 'type':
      return <>{r.type}</>;
    case 'scope':
      return <>{r.scope}</>;
    case 'project':
      return <span title={r.projectLabel}>{r.projectLabel}</span>;
    case 'lastUsed':
      return r.lastUsed ? <time dateTime={r.lastUsed} title={formatDateTime(r.lastUsed)}>{daysAgo(r.lastUsed)}</time> : <span className="muted">never</span>;
    case 'timesUsed':
      return <>{r.timesUsed}</>;
    case 'validUntil':
      return (
        <>
          {r.validUntil && <time dateTime={r.validUntil}>{formatDay(r.validUntil)}</time>}
          {r.expired && <> <span className="badge warn">expired</span></>}
        </>
      );
    case 'modified':
      return <time dateTime={r.modified}>{formatDay(r.modified)}</time>;
    case 'tokens':
      return <>{r.tokens}</>;
    case 'origin':
      return <OriginCell origin={r.origin} projectSlug={r.project} />;
  }
}

function OriginCell({ origin, projectSlug }: { origin: Origin; projectSlug: string }) {
  if (origin.kind === 'conversation' && origin.title !== null) return <ConversationLink projectSlug={projectSlug} sessionId={origin.sessionId} title={origin.title} />;
  if (origin.kind === 'unknown') return <span className="muted">—</span>;
  return <span title={originText(origin)}>{originText(origin)}</span>;
}
