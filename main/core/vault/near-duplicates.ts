import type { HealthReport } from '../../../common/domain/vault.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';

/** docs/memory.md#auto-memory "one specific line": two memories with the same line, give or take case and punctuation. */
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
 * The same shingles as 32-bit hashes, sorted and unique: what Health compares at 10,000 memories
 * without building a million strings (a collision can only nudge a Jaccard estimate).
 */
export function shingleHashes(body: string): Uint32Array {
  const words = wordHashes(body);
  const out = new Uint32Array(words.length < 3 ? Math.min(words.length, 1) : words.length - 2);
  if (words.length > 0 && words.length < 3) out[0] = words.reduce((h, w) => Math.imul(h ^ w, 0x01000193) >>> 0, 0x811c9dc5);
  for (let i = 0; i + 3 <= words.length; i++) {
    out[i] = (Math.imul(Math.imul(words[i]! ^ 0x9e3779b9, 0x85ebca6b) ^ words[i + 1]!, 0xc2b2ae35) ^ Math.imul(words[i + 2]!, 0x27d4eb2f)) >>> 0;
  }
  out.sort();
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[i - 1]) out[n++] = out[i]!;
  return out.slice(0, n);
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * FNV-1a of each lower-cased word (a run of letters and digits, as `shingles` splits), hashed while
 * scanning: no word strings are built (10,000 bodies at a time).
 */
function wordHashes(body: string): number[] {
  const out: number[] = [];
  let h = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i < body.length; i++) {
    let c = body.charCodeAt(i);
    let word: boolean;
    if (c < 128) {
      word = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
      if (c >= 65 && c <= 90) c += 32;
    } else {
      const ch = body.codePointAt(i)!;
      const text = String.fromCodePoint(ch);
      word = LETTER_OR_DIGIT.test(text);
      if (ch > 0xffff) i++;
      if (word) {
        const lower = text.toLowerCase();
        for (let k = 0; k < lower.length; k++) h = Math.imul(h ^ lower.charCodeAt(k), 0x01000193);
        inWord = true;
        continue;
      }
    }
    if (word) {
      h = Math.imul(h ^ c, 0x01000193);
      inWord = true;
    } else if (inWord) {
      out.push(h >>> 0);
      h = 0x811c9dc5;
      inWord = false;
    }
  }
  if (inWord) out.push(h >>> 0);
  return out;
}

/** A memory as near-duplicate detection sees it; `hashes` may be precomputed (Health caches them per file). */
export interface DuplicateCandidate {
  path: string;
  group: string;
  description: string;
  body: string;
  hashes?: Uint32Array;
}

/**
 * Pairs within one group (project) whose normalised descriptions are equal, or whose bodies' 3-shingle
 * Jaccard is at least `threshold`. Candidates come from an inverted shingle index, so unrelated
 * memories are never compared.
 */
export function nearDuplicates(memories: DuplicateCandidate[], threshold: number): HealthReport['duplicates'] {
  const out: HealthReport['duplicates'] = [];
  const byGroup = new Map<string, DuplicateCandidate[]>();
  for (const m of memories) pushTo(byGroup, m.group, m);
  for (const group of byGroup.values()) {
    const sorted = [...group].sort((a, b) => naturalCompare(a.path, b.path));
    const seen = new Set<string>();
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
    const sets = sorted.map((m) => m.hashes ?? shingleHashes(m.body));
    for (const [i, j, inter] of sharedShingles(sets)) {
      const union = sets[i]!.length + sets[j]!.length - inter;
      const a = sorted[i]!.path;
      const b = sorted[j]!.path;
      if (union > 0 && inter / union >= threshold && !seen.has(`${a}\0${b}`)) out.push({ a, b, why: 'similar-body' });
    }
  }
  return out;
}

/**
 * Every pair of sets (i < j) sharing at least one hash held by few sets, with the exact number of hashes
 * they share, in (i, j) order. The (hash, set) pairs are packed into one sorted Float64Array (hash × 2^20
 * + set, exact below 2^53), so each run of one hash lists the sets holding it. A hash most sets hold
 * (boilerplate) proposes no pair — near-duplicates share their rare shingles too — but still counts in
 * the exact intersection, computed by merging the two sorted sets.
 */
function sharedShingles(sets: Uint32Array[]): [number, number, number][] {
  let total = 0;
  for (const set of sets) total += set.length;
  const packed = new Float64Array(total);
  let k = 0;
  sets.forEach((set, i) => {
    for (const h of set) packed[k++] = h * 1_048_576 + i;
  });
  packed.sort();
  const n = sets.length;
  const common = Math.max(16, Math.ceil(n / 10));
  const candidates = new Set<number>();
  for (let start = 0; start < total; ) {
    const hash = Math.floor(packed[start]! / 1_048_576);
    let end = start + 1;
    while (end < total && Math.floor(packed[end]! / 1_048_576) === hash) end++;
    if (end - start <= common) {
      for (let x = start; x < end; x++) {
        const i = packed[x]! - hash * 1_048_576;
        for (let y = x + 1; y < end; y++) candidates.add(i * n + (packed[y]! - hash * 1_048_576));
      }
    }
    start = end;
  }
  return [...candidates]
    .sort((p, q) => p - q)
    .map((key) => {
      const i = Math.floor(key / n);
      const j = key % n;
      return [i, j, intersection(sets[i]!, sets[j]!)];
    });
}

/** The size of the intersection of two sorted unique arrays. */
function intersection(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let count = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      count++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return count;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
