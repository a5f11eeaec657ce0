import { useEffect, useState } from 'react';
import type { MemoryUse } from '../../../../common/domain/memory-use';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { freshnessOf, todayOf } from '../../../../common/memory-file/freshness';
import { api } from '../../bridge';
import { useStore } from '../../store';
import { ConversationLink, useConversationTitle } from './conversation-link';

const DAY_MS = 86_400_000;

/**
 * How recall used every memory (docs/memory.md#provenance-and-use), asked again when the vault's file
 * list changes; empty until main answers, or if it cannot.
 */
export function useMemoryUsage(): Readonly<Record<string, MemoryUse>> {
  const files = useStore((s) => s.files);
  const [usage, setUsage] = useState<Record<string, MemoryUse>>({});
  useEffect(() => {
    let current = true;
    void api.invoke['memory:usage']({}).then((r) => {
      if (current && r.ok) setUsage(r.value);
    });
    return () => {
      current = false;
    };
  }, [files]);
  return usage;
}

/** "today", "yesterday", "3 days ago". */
export function daysAgo(iso: string, now = Date.now()): string {
  const days = Math.max(0, Math.floor((now - Date.parse(iso)) / DAY_MS));
  return days === 0 ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`;
}

/** "Used 7 times, last 3 days ago", or "Not used yet". */
export function usedLine(use: MemoryUse | undefined): string {
  if (!use || use.count === 0) return 'Not used in an answer yet';
  return `Used ${use.count === 1 ? 'once' : `${use.count} times`}, last ${daysAgo(use.lastUsed)}`;
}

/** The memory's dates and where it stands on them (docs/memory.md#freshness). */
function DatesLine({ meta }: { meta: VaultFileMeta }) {
  const { validUntil, reviewOn } = meta.memory ?? {};
  if (!validUntil && !reviewOn) return null;
  const state = freshnessOf({ validUntil: validUntil ?? null, reviewOn: reviewOn ?? null }, todayOf(Date.now()));
  return (
    <p className="small">
      {validUntil && <>Valid until <time dateTime={validUntil}>{validUntil}</time>. </>}
      {reviewOn && <>Review on <time dateTime={reviewOn}>{reviewOn}</time>. </>}
      {state === 'expired' && <span className="badge warn">Expired</span>}
      {state === 'review-due' && <span className="badge warn">Due for review</span>}
    </p>
  );
}

/**
 * A memory's use: how often and when recall attached it, and the conversations that used it (newest
 * first, each once, opening it in Chat), plus its dates.
 */
export function MemoryUseSummary({ meta }: { meta: VaultFileMeta }) {
  const use = useMemoryUsage()[meta.path];
  const titleOf = useConversationTitle();
  const slug = meta.projectSlug;
  const sessions = [...new Set(use?.recent.map((r) => r.sessionId) ?? [])];
  const known = slug ? sessions.map((id) => ({ id, title: titleOf(slug, id) })).filter((s): s is { id: string; title: string } => s.title !== null) : [];
  return (
    <div className="memory-use">
      <p className="small">
        {usedLine(use)}
        {known.length > 0 && (
          <>
            {' — in '}
            {known.map((s, i) => (
              <span key={s.id}>
                {i > 0 && ', '}
                <ConversationLink projectSlug={slug!} sessionId={s.id} title={s.title} />
              </span>
            ))}
          </>
        )}
      </p>
      <DatesLine meta={meta} />
    </div>
  );
}
