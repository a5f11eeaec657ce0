import { useEffect, useState } from 'react';
import type { SearchHit } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { openConversationFile } from '../../bridge/open-conversation';
import { slug } from '../../../../common/paths/slug';

/** Below this many characters a full-text search would match nearly everything. */
const MIN_QUERY = 3;

/**
 * What the conversations of this project said that matches the sidebar's search: each hit opens its
 * conversation in Chat, scrolled to the words and marked there.
 */
export function ConversationHits({ project, query, onFound }: { project: string; query: string; onFound?: (count: number) => void }) {
  const [hits, setHits] = useState<SearchHit[]>([]);
  useEffect(() => onFound?.(hits.length), [hits.length, onFound]);
  const q = query.trim();
  useEffect(() => {
    if (q.length < MIN_QUERY) return setHits([]);
    let current = true;
    const timer = window.setTimeout(() => {
      void api.invoke['vault:search']({ query: q, scope: 'transcript', limit: 20 }).then((result) => {
        const prefix = `projects/${slug(project)}/`;
        if (current) setHits(result.ok ? result.value.filter((h) => h.path.startsWith(prefix)) : []);
      });
    }, 150);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [q, project]);
  if (hits.length === 0) return null;
  return (
    <section className="conversation-hits" aria-label="Found in conversations">
      <h3 className="muted small">Found in conversations</h3>
      <ul className="plain-list">
        {hits.map((hit) => (
          <li key={`${hit.path}:${hit.line}`}>
            <button
              type="button"
              className="result"
              onClick={() => void openConversationFile(hit.path, hit.ranges[0] ? hit.snippet.slice(hit.ranges[0][0], hit.ranges[0][1]) : q)}
            >
              <span className="result-title">{hit.title}</span>
              <span className="small muted">{hit.snippet}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
