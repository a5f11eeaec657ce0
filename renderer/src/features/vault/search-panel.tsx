import { useEffect, useState } from 'react';
import type { MemoryType, SearchHit, VaultScope } from '../../../../common/domain/vault';
import { openFile, runSearch, SEARCH_MAX } from '../../bridge/vault-actions';
import { arrowFocus } from '../../ui/arrow-keys';
import { useStore, useStoreShallow, type SearchFilters } from '../../store';
import { useProjectLabel } from './project-label';

const SCOPE_WORDS: Record<VaultScope, string> = {
  instructions: 'instructions',
  'session-notes': 'session notes',
  'project-memory': 'memory',
  'team-memory': 'team memory',
  transcript: 'conversation',
};

/** Where a hit lives, in words: "my-site · memory · line 4" (its path is in the tooltip). */
function whereWords(hit: SearchHit, label: (slug: string | null) => string): string {
  const slug = /^@?projects\/([^/]+)\//.exec(hit.path)?.[1] ?? null;
  return `${label(slug)} · ${SCOPE_WORDS[hit.scope]} · line ${hit.line}`;
}

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

/**
 * Results per page; "Show more" adds another page. Twenty fill the panel twice over at 800 px; fifty made
 * every keystroke draw (and main find snippets for) results nobody scrolls to: p95 keystroke to results
 * shown at 10,000 notes went from ~43 to ~33 ms (vault-ui-search).
 */
const PAGE = 20;

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
  const [page, setPage] = useState(PAGE);
  const [more, setMore] = useState(false);
  const label = useProjectLabel();
  // Results follow each keystroke, at once (a search takes milliseconds; an answer to an older query is
  // dropped when it comes late); a new query or filter starts again from the first page.
  useEffect(() => setPage(PAGE), [text, filters]);
  useEffect(() => {
    let current = true;
    void runSearch(text, filters, page).then((m) => current && setMore(m));
    return () => {
      current = false;
    };
  }, [text, filters, page]);
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
      {text.trim() && hits.length > 0 && (
        <p className="muted small result-count" role="status">
          {more ? `Showing the first ${hits.length} results; more match.` : `${hits.length} ${hits.length === 1 ? 'result' : 'results'}.`}
        </p>
      )}
      <ul className="plain-list results" data-query={query}>
        {hits.map((hit) => (
          <li key={`${hit.path}:${hit.line}`}>
            <button type="button" className="result" title={hit.path} onClick={() => void openFile(hit.path, hitTerm(hit))}>
              <span className="result-title">
                {hit.title} <span className="muted small">{whereWords(hit, label)}</span>
              </span>
              <Snippet hit={hit} />
            </button>
          </li>
        ))}
      </ul>
      {more && hits.length < SEARCH_MAX && (
        <button type="button" className="button secondary" onClick={() => setPage(Math.min(hits.length + PAGE, SEARCH_MAX))}>
          Show more
        </button>
      )}
      {more && hits.length >= SEARCH_MAX && <p className="muted small">More match than can be listed: add a word or a filter to narrow them.</p>}
    </section>
  );
}
