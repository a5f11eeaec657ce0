import { useEffect, useState } from 'react';
import type { MemoryUsage, MemoryUse } from '../../../../common/domain/memory-use';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { freshnessOf, todayOf } from '../../../../common/memory-file/freshness';
import { api } from '../../bridge';
import { useStore } from '../../store';
import { ConversationLink, useConversationTitle } from './conversation-link';
import { formatDay } from '../../ui/dates';

const DAY_MS = 86_400_000;
const NONE: MemoryUsage = { since: null, files: {} };

/**
 * How recall used every memory (docs/memory.md#provenance-and-use), asked again when the vault's file
 * list changes; empty until main answers, or if it cannot.
 */
export function useMemoryUsage(): MemoryUsage {
  const files = useStore((s) => s.files);
  const [usage, setUsage] = useState<MemoryUsage>(NONE);
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
      {validUntil && <>Valid until <time dateTime={validUntil}>{formatDay(validUntil)}</time>. </>}
      {reviewOn && <>Review on <time dateTime={reviewOn}>{formatDay(reviewOn)}</time>. </>}
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
  const use = useMemoryUsage().files[meta.path];
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

/** How long Strata must have counted before a memory recall never attached is worth a look. */
export const NEVER_USED_DAYS = 30;

/**
 * Memories recall has never attached though they existed through at least `NEVER_USED_DAYS` of
 * counting (docs/memory.md#provenance-and-use): candidates to retire, or to describe better.
 */
export function neverUsed(files: readonly VaultFileMeta[], usage: MemoryUsage, now: number): VaultFileMeta[] {
  if (!usage.since) return [];
  const since = Date.parse(usage.since);
  if (now - since < NEVER_USED_DAYS * DAY_MS) return [];
  return files.filter(
    (f) => (f.scope === 'project-memory' || f.scope === 'team-memory') && !f.path.endsWith('/MEMORY.md') && !usage.files[f.path] && Date.parse(f.mtime) <= since,
  );
}

/** Health's "never used" list, each opening the memory. */
export function NeverUsedMemories({ open, name }: { open: (path: string) => void; name: (path: string) => string }) {
  const files = useStore((s) => s.files);
  const usage = useMemoryUsage();
  const unused = neverUsed(files, usage, Date.now());
  if (unused.length === 0) return null;
  return (
    <section aria-labelledby="never-used-heading">
      <h2 id="never-used-heading">Never used in an answer</h2>
      <p className="muted small">
        Recall has not attached these since {formatDay(usage.since!)}. If one is still true, a more specific description helps recall find
        it; if not, retire or delete it (the memory table does both at once).
      </p>
      <ul className="plain-list">
        {unused.map((f) => (
          <li key={f.path}>
            <button type="button" className="link" title={f.path} onClick={() => open(f.path)}>
              {name(f.path)}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
