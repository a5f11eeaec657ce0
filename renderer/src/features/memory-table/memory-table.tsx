import { useMemo, useState } from 'react';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { openFile } from '../../bridge/vault-actions';
import { useStore, useStoreShallow } from '../../store';
import { freshnessOf, todayOf } from '../../../../common/memory-file/freshness';
import { ConversationLink, useConversationTitle } from '../vault/conversation-link';
import { daysAgo, useMemoryUsage } from '../vault/memory-use';
import { useProjectLabel } from '../vault/project-label';
import { deleteMemories, moveMemories, retireMemories } from './memory-table-actions';
import './memory-table.css';
import { formatDateTime, formatDay } from '../../ui/dates';

type Column = 'name' | 'type' | 'description' | 'scope' | 'project' | 'lastUsed' | 'timesUsed' | 'validUntil' | 'modified' | 'tokens' | 'origin';
const COLUMNS: { id: Column; label: string }[] = [
  { id: 'name', label: 'Name' },
  { id: 'type', label: 'Type' },
  { id: 'description', label: 'Description' },
  { id: 'scope', label: 'Scope' },
  { id: 'project', label: 'Project' },
  { id: 'lastUsed', label: 'Last used' },
  { id: 'timesUsed', label: 'Times used' },
  { id: 'validUntil', label: 'Valid until' },
  { id: 'modified', label: 'Last changed' },
  { id: 'tokens', label: 'Tokens' },
  { id: 'origin', label: 'Origin' },
];

interface Row {
  meta: VaultFileMeta;
  name: string;
  type: string;
  description: string;
  scope: 'project' | 'team';
  project: string;
  modified: string;
  tokens: number;
  /** ISO time, '' when never used (sorts first ascending: the never-used ones are what to look at). */
  lastUsed: string;
  timesUsed: number;
  validUntil: string;
  expired: boolean;
  origin: Origin;
}

/** Where a memory came from (docs/memory.md#provenance-and-use): a conversation, an import, or unknown. */
type Origin = { kind: 'conversation'; sessionId: string; title: string | null } | { kind: 'import'; from: string } | { kind: 'unknown' };

const originText = (o: Origin): string =>
  o.kind === 'conversation' ? (o.title ?? 'A deleted conversation') : o.kind === 'import' ? `Imported from ${o.from}` : '';

/** About four characters a token, as the health panel counts. */
const tokensOf = (size: number) => Math.ceil(size / 4);

/**
 * Every memory as a row (the Obsidian Bases view for memory): sortable and filterable, with bulk move
 * between a project's own and its team memory, and bulk delete — each with one Undo.
 */
export function MemoryTable() {
  const { files, projects, activeProject } = useStoreShallow((s) => ({ files: s.files, projects: s.projects, activeProject: s.activeProject }));
  const label = useProjectLabel();
  const activeSlug = projects.find((p) => p.path === activeProject)?.memorySlug ?? null;
  const [projectFilter, setProjectFilter] = useState<string>(activeSlug ?? '');
  const [query, setQuery] = useState('');
  const [type, setType] = useState('');
  const [sort, setSort] = useState<{ by: Column; desc: boolean }>({ by: 'name', desc: false });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);

  const usage = useMemoryUsage().files;
  const titleOf = useConversationTitle();
  const today = todayOf(Date.now());
  const all = useMemo<Row[]>(
    () =>
      files
        .filter((f) => (f.scope === 'project-memory' || f.scope === 'team-memory') && !f.path.endsWith('/MEMORY.md'))
        .map((meta) => {
          const use = usage[meta.path];
          const extras = meta.memory ?? {};
          const origin: Origin = extras.originSessionId
            ? { kind: 'conversation', sessionId: extras.originSessionId, title: titleOf(meta.projectSlug, extras.originSessionId) }
            : extras.importedFrom
              ? { kind: 'import', from: extras.importedFrom }
              : { kind: 'unknown' };
          return {
            meta,
            name: meta.title,
            type: meta.type ?? '—',
            description: meta.description ?? '',
            scope: meta.scope === 'team-memory' ? 'team' : 'project',
            project: meta.projectSlug ?? '',
            modified: meta.mtime,
            tokens: tokensOf(meta.size),
            lastUsed: use?.lastUsed ?? '',
            timesUsed: use?.count ?? 0,
            validUntil: extras.validUntil ?? '',
            expired: freshnessOf({ validUntil: extras.validUntil ?? null, reviewOn: null }, today) === 'expired',
            origin,
          };
        }),
    [files, usage, titleOf, today],
  );
  const slugs = useMemo(() => [...new Set(all.map((r) => r.project))].sort(), [all]);
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    const shown = all.filter(
      (r) => (!projectFilter || r.project === projectFilter) && (!type || r.type === type) && (!q || `${r.name} ${r.description}`.toLowerCase().includes(q)),
    );
    const key = (r: Row): string | number =>
      sort.by === 'project' ? label(r.project) : sort.by === 'origin' ? originText(r.origin) : r[sort.by];
    shown.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      // Ties in name order, whatever the earlier sort was: the same rows always come out the same way.
      return (sort.desc ? -c : c) || a.name.localeCompare(b.name);
    });
    return shown;
  }, [all, projectFilter, type, query, sort, label]);
  // One project shown: its name in every row says nothing.
  const columns = projectFilter ? COLUMNS.filter((c) => c.id !== 'project') : COLUMNS;
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

  return (
    <section className="memory-table-view" aria-labelledby="memory-table-heading">
      <header className="file-header">
        <h1 id="memory-table-heading">Memory table</h1>
      </header>
      <div className="row table-filters">
        <input className="input" aria-label="Filter by name or description" placeholder="Filter…" value={query} onChange={(e) => setQuery(e.target.value)} />
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
          {['user', 'feedback', 'project', 'reference'].map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        <span className="muted small" role="status">
          {rows.length} {rows.length === 1 ? 'memory' : 'memories'}
          {picked.length > 0 ? `, ${picked.length} selected` : ''}
        </span>
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
      <div className="table-scroll">
        <table className="memory-table">
          <thead>
            <tr>
              <th scope="col">
                <input
                  type="checkbox"
                  aria-label="Select all shown"
                  checked={rows.length > 0 && picked.length === rows.length}
                  onChange={(e) => setChosen(e.target.checked ? new Set(rows.map((r) => r.meta.path)) : new Set())}
                />
              </th>
              {columns.map((c) => (
                <th key={c.id} scope="col" aria-sort={sort.by === c.id ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
                  <button type="button" className="link" onClick={() => setSort((s) => ({ by: c.id, desc: s.by === c.id ? !s.desc : false }))}>
                    {c.label}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.meta.path} aria-selected={chosen.has(r.meta.path)}>
                <td>
                  <input type="checkbox" aria-label={`Select ${r.name}`} checked={chosen.has(r.meta.path)} onChange={(e) => toggle(r.meta.path, e.target.checked)} />
                </td>
                <td>
                  <button type="button" className="link" onClick={() => void openFile(r.meta.path)}>
                    {r.name}
                  </button>
                </td>
                <td>{r.type}</td>
                <td className="description">{r.description}</td>
                <td>{r.scope}</td>
                {!projectFilter && <td>{label(r.project)}</td>}
                <td className="date">{r.lastUsed ? <time dateTime={r.lastUsed} title={formatDateTime(r.lastUsed)}>{daysAgo(r.lastUsed)}</time> : <span className="muted">never</span>}</td>
                <td className="number">{r.timesUsed}</td>
                <td className="date">
                  {r.validUntil && <time dateTime={r.validUntil}>{formatDay(r.validUntil)}</time>}
                  {r.expired && <> <span className="badge warn">expired</span></>}
                </td>
                <td>
                  <time dateTime={r.modified}>{formatDay(r.modified)}</time>
                </td>
                <td className="number">{r.tokens}</td>
                <td className="origin">
                  <OriginCell origin={r.origin} projectSlug={r.project} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {all.length === 0 && <p className="muted">No memories yet.</p>}
    </section>
  );
}

function OriginCell({ origin, projectSlug }: { origin: Origin; projectSlug: string }) {
  if (origin.kind === 'conversation' && origin.title !== null) return <ConversationLink projectSlug={projectSlug} sessionId={origin.sessionId} title={origin.title} />;
  if (origin.kind === 'unknown') return <span className="muted">—</span>;
  return <span>{originText(origin)}</span>;
}

/** Opens the table from the command palette. */
export function openMemoryTable(): void {
  const s = useStore.getState();
  s.setScreen('vault');
  s.setPanel('table');
}
