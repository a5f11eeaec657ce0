import { useMemo, useState } from 'react';
import { useStore, useStoreShallow } from '../../store';
import { todayOf } from '../../../../common/memory-file/freshness';
import { useConversationTitle } from '../vault/conversation-link';
import { useMemoryUsage } from '../vault/memory-use';
import { useProjectLabel } from '../vault/project-label';
import { deleteMemories, moveMemories, retireMemories } from './memory-table-actions';
import { ColumnChooser, useChosenColumns } from './table-columns';
import { TableGrid } from './table-grid';
import { buildRows, SortKeys, type SortColumn } from './table-rows';
import { useWordFilter } from './use-word-filter';
import './memory-table.css';

const TYPES = ['user', 'feedback', 'project', 'reference'];

/**
 * Every memory as a row (the Obsidian Bases view for memory, docs/memory-upkeep.md#the-memory-table):
 * sortable, filtered by words as vault search matches them, with the columns one chooses, and bulk
 * move between a project's own and its team memory, retire and delete — each with one Undo.
 */
export function MemoryTable() {
  const { files, projects, activeProject } = useStoreShallow((s) => ({ files: s.files, projects: s.projects, activeProject: s.activeProject }));
  const label = useProjectLabel();
  const activeSlug = projects.find((p) => p.path === activeProject)?.memorySlug ?? null;
  const [projectFilter, setProjectFilter] = useState<string>(activeSlug ?? '');
  const [query, setQuery] = useState('');
  const [type, setType] = useState('');
  const [sort, setSort] = useState<{ by: SortColumn; desc: boolean }>({ by: 'name', desc: false });
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [columns, toggleColumn, resetColumns] = useChosenColumns();

  const usage = useMemoryUsage().files;
  const titleOf = useConversationTitle();
  const today = todayOf(Date.now());
  const all = useMemo(() => buildRows({ files, usage, titleOf, projectLabel: label, today }), [files, usage, titleOf, label, today]);
  const keys = useMemo(() => new SortKeys(all), [all]);
  const sorted = useMemo(() => keys.sorted(sort.by, sort.desc), [keys, sort]);
  const words = useWordFilter(query, files);
  const rows = useMemo(
    () => sorted.filter((r) => (!projectFilter || r.project === projectFilter) && (!type || r.type === type) && (!words.paths || words.paths.has(r.meta.path))),
    [sorted, projectFilter, type, words.paths],
  );
  const slugs = useMemo(() => [...new Set(all.map((r) => r.project))].sort(), [all]);
  // One project shown: its name in every row says nothing.
  const shownColumns = projectFilter ? columns.filter((c) => c !== 'project') : columns;
  const picked = rows.filter((r) => chosen.has(r.meta.path));
  const run = (fn: () => Promise<void>) => {
    setBusy(true);
    void fn().finally(() => {
      setBusy(false);
      setChosen(new Set());
    });
  };
  const toggle = (path: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(path);
    else next.delete(path);
    setChosen(next);
  };
  const filtered = Boolean(query.trim() || type);

  return (
    <section className="memory-table-view" aria-labelledby="memory-table-heading">
      <header className="file-header">
        <h1 id="memory-table-heading">Memory table</h1>
        <span className="muted small table-count" role="status">
          {words.pending ? 'Filtering… ' : ''}
          {rows.length.toLocaleString()} {rows.length === 1 ? 'memory' : 'memories'}
          {picked.length > 0 ? `, ${picked.length.toLocaleString()} selected` : ''}
        </span>
      </header>
      <div className="row table-filters">
        <input
          className="input"
          type="search"
          aria-label="Filter by words"
          placeholder="Filter by words…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <select className="input" aria-label="Project" value={projectFilter} onChange={(e) => setProjectFilter(e.target.value)}>
          <option value="">All projects</option>
          {slugs.map((s) => (
            <option key={s} value={s}>
              {label(s)}
            </option>
          ))}
        </select>
        <select className="input" aria-label="Type" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">All types</option>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <ColumnChooser shown={columns} toggle={toggleColumn} reset={resetColumns} />
      </div>
      <div className="row table-actions">
        <button type="button" className="button secondary" disabled={busy || !picked.some((r) => r.scope === 'project')} onClick={() => run(() => moveMemories(picked.filter((r) => r.scope === 'project').map((r) => r.meta.path), true))}>
          Move to team memory
        </button>
        <button type="button" className="button secondary" disabled={busy || !picked.some((r) => r.scope === 'team')} onClick={() => run(() => moveMemories(picked.filter((r) => r.scope === 'team').map((r) => r.meta.path), false))}>
          Move to project memory
        </button>
        <button
          type="button"
          className="button secondary"
          disabled={busy || picked.length === 0}
          title="Keep them, but dated: the agent is told they are no longer true"
          onClick={() => run(() => retireMemories(picked.map((r) => r.meta.path)))}
        >
          Retire
        </button>
        <button type="button" className="button ghost danger" disabled={busy || picked.length === 0} onClick={() => run(() => deleteMemories(picked.map((r) => r.meta.path)))}>
          Delete
        </button>
      </div>
      {all.length === 0 ? (
        <p className="muted">No memories yet. What the assistant remembers in your conversations shows here.</p>
      ) : rows.length === 0 && !words.pending ? (
        <div className="empty-state compact table-empty">
          <p>
            {filtered ? <>No memory matches {query.trim() ? <>“{query.trim()}”</> : 'these filters'}{projectFilter ? ` in ${label(projectFilter)}` : ''}.</> : `No memories in ${label(projectFilter)}.`}
          </p>
          <button
            type="button"
            className="button secondary"
            onClick={() => {
              setQuery('');
              setType('');
              setProjectFilter('');
            }}
          >
            Show all memories
          </button>
        </div>
      ) : (
        <TableGrid
          rows={rows}
          columns={shownColumns}
          allProjects={!projectFilter}
          chosen={chosen}
          toggle={toggle}
          selectAll={(on) => setChosen(on ? new Set(rows.map((r) => r.meta.path)) : new Set())}
          sort={sort}
          sortBy={(by) => setSort((s) => ({ by, desc: s.by === by ? !s.desc : false }))}
        />
      )}
    </section>
  );
}

/** Opens the table from the command palette. */
export function openMemoryTable(): void {
  const s = useStore.getState();
  s.setScreen('vault');
  s.setPanel('table');
}
