import type { MemoryConfig } from '../../../common/config.js';
import { healthProblemKinds, type HealthProblem, type HealthProblemKind, type HealthReport, type MemoryIndexView, type VaultFileMeta } from '../../../common/domain/vault.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';
import { estimateTextTokens } from '../llm/index.js';
import { isMemoryScope, memoryDir } from './vault-paths.js';
import { freshnessOf, splitFrontmatter, todayOf } from '../../../common/memory-file/index.js';
import { nearDuplicates, shingleHashes, type DuplicateCandidate } from './near-duplicates.js';
import { slicePause } from './file-scan.js';

export { nearDuplicates, normaliseDescription, shingles } from './near-duplicates.js';

/** What the health computation reads: the listed files with their text (null when not loaded). */
export interface HealthInput {
  files: { meta: VaultFileMeta; text: string | null; hash: string | null }[];
  indexes: { projectSlug: string; team: boolean; view: MemoryIndexView }[];
  now: number;
  config: MemoryConfig;
  /** Per-file work kept between runs (by content hash), so a second check costs little. */
  cache?: HealthCache;
}

/** What Health derives from one file's text. */
interface FileFacts {
  hash: string;
  tokens: number;
  body: string;
  hashes: Uint32Array | null;
}

/** Per-file facts by path, reused while the file's hash is unchanged; files gone are dropped on each run. */
export class HealthCache {
  private readonly facts = new Map<string, FileFacts>();

  get(path: string, hash: string | null, text: string, memory: boolean): FileFacts {
    const known = this.facts.get(path);
    if (known && hash !== null && known.hash === hash && (known.hashes !== null) === memory) return known;
    const body = memory ? (splitFrontmatter(text)?.body ?? text) : '';
    const facts = { hash: hash ?? '', tokens: estimateTextTokens(text), body, hashes: memory ? shingleHashes(body) : null };
    this.facts.set(path, facts);
    return facts;
  }

  keepOnly(paths: Set<string>): void {
    for (const p of this.facts.keys()) if (!paths.has(p)) this.facts.delete(p);
  }

  private readonly pairs = new Map<string, { signature: string; pairs: Promise<HealthReport['duplicates']> }>();

  /** Near-duplicates of one project's memories, recomputed only when one of them changed (and once for two checks at a time). */
  duplicates(group: string, members: (DuplicateCandidate & { hash: string })[], threshold: number): Promise<HealthReport['duplicates']> {
    const signature = `${threshold}\n${members.map((m) => `${m.path}\0${m.hash}\0${m.description}`).join('\n')}`;
    const known = this.pairs.get(group);
    if (known?.signature === signature) return known.pairs;
    const pairs = nearDuplicates(members, threshold);
    this.pairs.set(group, { signature, pairs });
    return pairs;
  }

  keepGroups(groups: Set<string>): void {
    for (const g of this.pairs.keys()) if (!groups.has(g)) this.pairs.delete(g);
  }
}

const DAY_MS = 86_400_000;
/** The tidy-up works on a project's own memories, not the team's: a full team index is shortened by hand. */
const TEAM_INDEX_FIX = 'Open the team MEMORY.md';
const KIND_ORDER: readonly HealthProblemKind[] = healthProblemKinds;

/**
 * What an index over its cap costs, in words, or null when it fits: the agent reads MEMORY.md cut to
 * its line cap, then its character cap (docs/memory.md#memory-index), so the rest is never seen.
 */
export function overCapMessage(h: MemoryIndexView['headroom']): string | null {
  if (h.lines <= h.maxLines && h.chars <= h.maxChars) return null;
  const n = (x: number) => x.toLocaleString('en-US');
  const size = h.lines > h.maxLines ? `${n(h.lines)} lines` : `${n(h.chars)} characters`;
  return `MEMORY.md has ${size}, but the agent reads only its first ${n(h.maxLines)} lines and ${n(h.maxChars)} characters: what comes after is never seen. Tidy memory to merge memories and shorten the index.`;
}

/**
 * The health panel's data: what is really wrong, each with its fix (frontmatter Claude Code cannot
 * read, index lines pointing at nothing, memories the index does not list, memories not touched in
 * `staleDays`), plus what to know without a fix to click — tokens per file and in total, MEMORY.md
 * headroom, near-duplicates (which one to keep is the user's choice), oversized instructions.
 */
export async function computeHealth(input: HealthInput): Promise<HealthReport> {
  const { config, now } = input;
  const cache = input.cache ?? new HealthCache();
  const files: HealthReport['files'] = [];
  const stale: HealthReport['stale'] = [];
  const largeInstructions: HealthReport['largeInstructions'] = [];
  const memories = new Map<string, (DuplicateCandidate & { hash: string })[]>();
  const problems: HealthProblem[] = [];
  const seen = new Set<string>();
  // The first pass hashes every memory's shingles: it yields every few ms (docs/memory.md#vault-upkeep).
  const pause = slicePause();
  for (const { meta, text, hash } of input.files) {
    await pause();
    if (meta.scope === 'transcript' || text === null) continue;
    seen.add(meta.path);
    const isMemory = isMemoryScope(meta.scope) && !meta.path.endsWith('/MEMORY.md');
    const facts = cache.get(meta.path, hash, text, isMemory);
    files.push({ path: meta.path, tokens: facts.tokens });
    if (meta.scope === 'instructions' && text.length > config.instructions.largeFileChars) {
      largeInstructions.push({ path: meta.path, chars: text.length });
    }
    if (!isMemory) continue;
    const team = meta.scope === 'team-memory';
    if (meta.error) {
      problems.push({ kind: 'frontmatter', path: meta.path, projectSlug: meta.projectSlug, team, message: meta.error, fix: 'Repair the frontmatter' });
    }
    const dates = { validUntil: meta.memory?.validUntil ?? null, reviewOn: meta.memory?.reviewOn ?? null };
    const freshness = freshnessOf(dates, todayOf(now));
    if (freshness === 'expired') {
      problems.push({
        kind: 'expired', path: meta.path, projectSlug: meta.projectSlug, team,
        message: `Valid until ${dates.validUntil}: recall now tells the agent it is no longer true. Renew it, or delete it.`,
        fix: `Renew for ${config.autoMemory.staleDays} days`,
      });
    } else if (freshness === 'review-due') {
      problems.push({
        kind: 'review-due', path: meta.path, projectSlug: meta.projectSlug, team,
        message: `Due for review since ${dates.reviewOn}: check it is still true, or delete it.`, fix: 'Still true',
      });
    }
    const days = Math.floor((now - Date.parse(meta.mtime)) / DAY_MS);
    // A memory with its own dates is judged by them (docs/memory.md#freshness), not by its age.
    if (days >= config.autoMemory.staleDays && !dates.validUntil && !dates.reviewOn) {
      stale.push({ path: meta.path, days });
      problems.push({
        kind: 'stale', path: meta.path, projectSlug: meta.projectSlug, team,
        message: `Not updated in ${days} days: check it is still true, or delete it.`, fix: 'Still true',
      });
    }
    const group = meta.projectSlug ?? '';
    const member = { path: meta.path, group, description: meta.description ?? '', body: facts.body, hashes: facts.hashes ?? undefined, hash: facts.hash };
    const list = memories.get(group);
    if (list) list.push(member);
    else memories.set(group, [member]);
  }
  cache.keepOnly(seen);
  cache.keepGroups(new Set(memories.keys()));
  const duplicates: HealthReport['duplicates'] = [];
  for (const [group, members] of memories) duplicates.push(...(await cache.duplicates(group, members, config.vault.nearDuplicateJaccard)));
  for (const { projectSlug, team, view } of input.indexes) {
    const dir = memoryDir(projectSlug, team);
    const over = overCapMessage(view.headroom);
    if (over) problems.push({ kind: 'index-over-cap', path: `${dir}/MEMORY.md`, projectSlug, team, message: over, fix: team ? TEAM_INDEX_FIX : 'Tidy memory in the Inbox' });
    for (const l of view.lines.filter((x) => x.broken)) {
      problems.push({
        kind: 'broken-pointer', path: `${dir}/${l.target}`, projectSlug, team,
        message: `A line of MEMORY.md (“${l.title || l.target}”) points at a memory that does not exist.`, fix: 'Remove the line',
      });
    }
    const full = view.headroom.lines >= view.headroom.maxLines || view.headroom.chars >= view.headroom.maxChars;
    const message = full
      ? 'Not listed in MEMORY.md, which is full, so the agent does not see it when a conversation starts.'
      : 'Not listed in MEMORY.md, so the agent does not see it when a conversation starts.';
    for (const p of view.missing) {
      problems.push({ kind: 'missing-from-index', path: `${dir}/${p}`, projectSlug, team, message, fix: 'Add it to the index', ...(full ? { next: 'tidy' as const } : {}) });
    }
  }
  problems.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || naturalCompare(a.path, b.path));
  files.sort((a, b) => b.tokens - a.tokens || naturalCompare(a.path, b.path));
  return {
    problems,
    totalTokens: files.reduce((sum, f) => sum + f.tokens, 0),
    files,
    indexes: input.indexes.map(({ projectSlug, team, view }) => ({ ...view.headroom, projectSlug, team })),
    stale: stale.sort((a, b) => b.days - a.days || naturalCompare(a.path, b.path)),
    duplicates,
    largeInstructions,
    brokenPointers: input.indexes.flatMap(({ projectSlug, team, view }) =>
      view.lines.filter((l) => l.broken).map((l) => ({ projectSlug, team, target: l.target })),
    ),
    missingFromIndex: input.indexes.flatMap(({ projectSlug, team, view }) => view.missing.map((p) => ({ projectSlug, team, path: p }))),
  };
}
