import { useEffect, useState } from 'react';
import type { SearchHit } from '../../../../common/domain/vault';
import { openFile, runSearch } from '../../bridge/vault-actions';
import { useStoreShallow } from '../../store';

const SCOPES = [
  ['', 'Everything'],
  ['project-memory', 'Project memory'],
  ['team-memory', 'Team memory'],
  ['session-notes', 'Session notes'],
  ['instructions', 'Instructions'],
  ['transcript', 'Conversations'],
] as const;

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

/** Full-text search over memories, notes, instructions and conversations, with scope filters. */
export function SearchPanel() {
  const { query, scope, hits } = useStoreShallow((s) => ({ query: s.searchQuery, scope: s.searchScope, hits: s.searchHits }));
  const [text, setText] = useState(query);
  useEffect(() => {
    const timer = setTimeout(() => void runSearch(text, scope), 150);
    return () => clearTimeout(timer);
  }, [text, scope]);
  return (
    <section className="search-panel" aria-labelledby="search-heading">
      <h1 id="search-heading">Search the vault</h1>
      <div className="row">
        <label className="sr-only" htmlFor="vault-search">
          Search text
        </label>
        <input id="vault-search" className="input grow" autoFocus placeholder="Search…" value={text} onChange={(e) => setText(e.target.value)} />
        <label className="sr-only" htmlFor="vault-scope">
          Where
        </label>
        <select id="vault-scope" className="input" value={scope ?? ''} onChange={(e) => void runSearch(text, e.target.value || null)}>
          {SCOPES.map(([value, label]) => (
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
            <button type="button" className="result" onClick={() => void openFile(hit.path)}>
              <span className="result-title">
                {hit.title} <span className="muted small">{hit.path}:{hit.line}</span>
              </span>
              <Snippet hit={hit} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
