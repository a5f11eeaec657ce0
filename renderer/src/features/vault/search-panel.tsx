import { useEffect, useState } from 'react';
import type { MemoryType, SearchHit, VaultScope } from '../../../../common/domain/vault';
import { openFile, runSearch } from '../../bridge/vault-actions';
import { arrowFocus } from '../../ui/arrow-keys';
import { useStore, useStoreShallow, type SearchFilters } from '../../store';
import { useDisplayPath } from './project-label';

/** The words the search matched in a hit (what a conversation opened from it is scrolled to). */
const hitTerm = (hit: SearchHit): string => (hit.ranges[0] ? hit.snippet.slice(hit.ranges[0][0], hit.ranges[0][1]) : '');

const SCOPES: readonly (readonly [VaultScope | '', string])[] = [
  ['', 'Everything'],
  ['project-memory', 'Project memory'],
  ['team-memory', 'Team memory'],
  ['session-notes', 'Session notes'],
  ['instructions', 'Instructions'],
  ['transcript', 'Conversations'],
];

const TYPES: readonly (readonly [MemoryType | '', string])[] = [
  ['', 'Any type'],
  ['user', 'user'],
  ['feedback', 'feedback'],
  ['project', 'project'],
  ['reference', 'reference'],
];

function Snippet({ hit }: { hit: SearchHit }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end] of [...hit.ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    parts.push(hit.snippet.slice(at, start), <mark key={start}>{hit.snippet.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(hit.snippet.slice(at));
  return <span className="snippet">{parts}</span>;
}

/** Full-text search over memories, notes, instructions and conversations, filtered by scope and type. */
export function SearchPanel() {
  const { query, filters, hits } = useStoreShallow((s) => ({ query: s.searchQuery, filters: s.searchFilters, hits: s.searchHits }));
  const [text, setText] = useState(query);
  const shown = useDisplayPath();
  useEffect(() => {
    const timer = setTimeout(() => void runSearch(text, filters), 150);
    return () => clearTimeout(timer);
  }, [text, filters]);
  // A filter change runs the search through the effect above, like typing does.
  const filter = (next: Partial<SearchFilters>) => useStore.getState().setSearch(text, { ...filters, ...next }, hits);
  return (
    <section className="search-panel" aria-labelledby="search-heading" onKeyDown={arrowFocus('#vault-search, button.result')}>
      <h1 id="search-heading">Search the vault</h1>
      <div className="row">
        <label className="sr-only" htmlFor="vault-search">
          Search text
        </label>
        <input id="vault-search" className="input grow" autoFocus placeholder="Search…" value={text} onChange={(e) => setText(e.target.value)} />
        <label className="sr-only" htmlFor="vault-scope">
          Where
        </label>
        <select id="vault-scope" className="input" value={filters.scope ?? ''} onChange={(e) => filter({ scope: (e.target.value || null) as VaultScope | null })}>
          {SCOPES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label className="sr-only" htmlFor="vault-type">
          Memory type
        </label>
        <select id="vault-type" className="input" value={filters.type ?? ''} onChange={(e) => filter({ type: (e.target.value || null) as MemoryType | null })}>
          {TYPES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {text.trim() && hits.length === 0 && <p className="muted">Nothing found for “{text.trim()}”.</p>}
      <ul className="plain-list results">
        {hits.map((hit) => (
          <li key={`${hit.path}:${hit.line}`}>
            <button type="button" className="result" onClick={() => void openFile(hit.path, hitTerm(hit))}>
              <span className="result-title">
                {hit.title} <span className="muted small">{shown(hit.path)}:{hit.line}</span>
              </span>
              <Snippet hit={hit} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
