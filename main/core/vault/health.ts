import type { MemoryConfig } from '../../../common/config.js';
import type { HealthReport, MemoryIndexView, VaultFileMeta } from '../../../common/domain/vault.js';
import { estimateTextTokens } from '../llm/tokens.js';
import { isMemoryScope } from './vault-paths.js';
import { parseMarkdown } from './markdown-view.js';

/** What the health computation reads: the listed files with their text (null when not loaded). */
export interface HealthInput {
  files: { meta: VaultFileMeta; text: string | null }[];
  indexes: { projectSlug: string; team: boolean; view: MemoryIndexView }[];
  now: number;
  config: MemoryConfig;
}

const DAY_MS = 86_400_000;

/** SPEC §4 "one specific line": two memories with the same line, give or take case and punctuation. */
export const normaliseDescription = (d: string): string =>
  d
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Word 3-shingles of a body (lower-cased words); a body under three words is one shingle. */
export function shingles(body: string): Set<string> {
  const words = body.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out = new Set<string>();
  if (words.length > 0 && words.length < 3) out.add(words.join(' '));
  for (let i = 0; i + 3 <= words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return out;
}

/**
 * The health panel's data (issue 4 item 5): tokens per file and in total (what goes into context:
 * instructions, notes, memories — not transcripts), MEMORY.md headroom, broken and missing pointers,
 * stale memories, near-duplicates, oversized CLAUDE.md files. Pure: the vault hands in what it read.
 */
export function computeHealth(input: HealthInput): HealthReport {
  const { config, now } = input;
  const files: HealthReport['files'] = [];
  const stale: HealthReport['stale'] = [];
  const largeInstructions: HealthReport['largeInstructions'] = [];
  const memories: { path: string; group: string; description: string; body: string }[] = [];
  for (const { meta, text } of input.files) {
    if (meta.scope === 'transcript' || text === null) continue;
    files.push({ path: meta.path, tokens: estimateTextTokens(text) });
    if (meta.scope === 'instructions' && text.length > config.instructions.largeFileChars) {
      largeInstructions.push({ path: meta.path, chars: text.length });
    }
    if (!isMemoryScope(meta.scope) || meta.path.endsWith('/MEMORY.md')) continue;
    const days = Math.floor((now - Date.parse(meta.mtime)) / DAY_MS);
    if (days >= config.autoMemory.staleDays) stale.push({ path: meta.path, days });
    const parsed = parseMarkdown(text);
    memories.push({ path: meta.path, group: meta.projectSlug ?? '', description: meta.description ?? '', body: parsed.body });
  }
  files.sort((a, b) => b.tokens - a.tokens || a.path.localeCompare(b.path));
  return {
    totalTokens: files.reduce((sum, f) => sum + f.tokens, 0),
    files,
    indexes: input.indexes.map(({ projectSlug, team, view }) => ({ ...view.headroom, projectSlug, team })),
    stale: stale.sort((a, b) => b.days - a.days),
    duplicates: nearDuplicates(memories, config.vault.nearDuplicateJaccard),
    largeInstructions,
    brokenPointers: input.indexes.flatMap(({ projectSlug, team, view }) =>
      view.lines.filter((l) => l.broken).map((l) => ({ projectSlug, team, target: l.target })),
    ),
    missingFromIndex: input.indexes.flatMap(({ projectSlug, team, view }) =>
      view.missing.map((p) => ({ projectSlug, team, path: p })),
    ),
  };
}

/**
 * Pairs within one project whose normalised descriptions are equal, or whose bodies' 3-shingle
 * Jaccard is at least `threshold`. Candidates come from an inverted shingle index, so unrelated
 * memories are never compared.
 */
export function nearDuplicates(
  memories: { path: string; group: string; description: string; body: string }[],
  threshold: number,
): HealthReport['duplicates'] {
  const out: HealthReport['duplicates'] = [];
  const seen = new Set<string>();
  const byGroup = new Map<string, typeof memories>();
  for (const m of memories) pushTo(byGroup, m.group, m);
  for (const group of byGroup.values()) {
    const sorted = [...group].sort((a, b) => a.path.localeCompare(b.path));
    const byDescription = new Map<string, string[]>();
    for (const m of sorted) {
      const d = normaliseDescription(m.description);
      if (d) pushTo(byDescription, d, m.path);
    }
    for (const paths of byDescription.values()) {
      for (let i = 0; i < paths.length; i++) {
        for (let j = i + 1; j < paths.length; j++) {
          seen.add(`${paths[i]}\0${paths[j]}`);
          out.push({ a: paths[i]!, b: paths[j]!, why: 'description' });
        }
      }
    }
    const sets = sorted.map((m) => shingles(m.body));
    const postings = new Map<string, number[]>();
    sets.forEach((set, i) => {
      for (const s of set) pushTo(postings, s, i);
    });
    sets.forEach((set, i) => {
      const shared = new Map<number, number>();
      for (const s of set) for (const j of postings.get(s)!) if (j > i) shared.set(j, (shared.get(j) ?? 0) + 1);
      for (const [j, inter] of shared) {
        const union = set.size + sets[j]!.size - inter;
        const a = sorted[i]!.path;
        const b = sorted[j]!.path;
        if (union > 0 && inter / union >= threshold && !seen.has(`${a}\0${b}`)) out.push({ a, b, why: 'similar-body' });
      }
    });
  }
  return out;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
