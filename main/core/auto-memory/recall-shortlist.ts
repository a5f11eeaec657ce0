import type { MemoryFile } from './memory-files.js';
import type { RankedMemory } from './recall-rank.js';

/**
 * The first stage of recall with the model (docs/memory.md#recall "Two stages"): the local ranking's best
 * matches, the newest few files whatever their words (a memory written minutes ago is never crowded
 * out), then newer files as room allows — as many lines as fit in a fixed token budget, so a folder of
 * 10,000 memories costs a turn what one of 300 does.
 */

/** The selector's whole prompt (system and user message) stays within this many tokens (chars ÷ 4). */
export const SELECTOR_PROMPT_TOKENS = 4_000;
/** The newest files always listed. */
const NEWEST_ALWAYS = 5;
/** A description longer than this is cut in the list (the file holds the rest). */
const DESCRIPTION_CHARS = 160;

export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** One line of the selector's list: `- [type] file.md (2026-05-08): description`. */
export function shortlistLine(f: MemoryFile): string {
  const tag = f.type && f.type !== 'untyped' ? `[${f.type}] ` : '';
  const about = (f.description ?? f.name ?? '').replace(/\s+/g, ' ').trim();
  const cut = about.length > DESCRIPTION_CHARS ? `${about.slice(0, DESCRIPTION_CHARS - 1).trimEnd()}…` : about;
  return `- ${tag}${f.relPath} (${day(f.mtimeMs)})${cut ? `: ${cut}` : ''}`;
}

export interface Shortlist {
  files: MemoryFile[];
  manifest: string;
  tokens: number;
  /** Of `files`, those listed for being new rather than for their words. */
  byRecency: Set<string>;
}

/**
 * Lists `ranked` (best first) after the newest `NEWEST_ALWAYS` of `newestFirst`, then the rest of
 * `newestFirst`, line by line while `fixedTokens` (the rest of the prompt) plus the lines fit the budget.
 */
export function buildShortlist(ranked: readonly RankedMemory[], newestFirst: readonly MemoryFile[], fixedTokens: number, budget = SELECTOR_PROMPT_TOKENS): Shortlist {
  const byRel = new Map(newestFirst.map((f) => [f.relPath, f]));
  const matched = new Set(ranked.map((r) => r.relPath));
  const order: MemoryFile[] = [];
  const listed = new Set<string>();
  const push = (file: MemoryFile | undefined) => {
    if (!file || listed.has(file.relPath)) return;
    listed.add(file.relPath);
    order.push(file);
  };
  for (const f of newestFirst.slice(0, NEWEST_ALWAYS)) push(f);
  for (const r of ranked) push(byRel.get(r.relPath));
  for (const f of newestFirst) push(f);

  const files: MemoryFile[] = [];
  const lines: string[] = [];
  const byRecency = new Set<string>();
  let tokens = fixedTokens;
  for (const file of order) {
    const line = shortlistLine(file);
    const cost = estimateTokens(`${line}\n`);
    if (tokens + cost > budget) break;
    tokens += cost;
    files.push(file);
    lines.push(line);
    if (!matched.has(file.relPath)) byRecency.add(file.relPath);
  }
  return { files, manifest: lines.join('\n'), tokens, byRecency };
}
