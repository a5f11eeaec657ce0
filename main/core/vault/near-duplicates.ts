import type { HealthReport } from '../../../common/domain/vault.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';
import { slicePause } from './file-scan.js';
import { HashSlots } from './hash-slots.js';

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
 * Jaccard is at least `threshold` (docs/memory.md#vault-upkeep). Candidates come from a prefix-filtered
 * inverted index (`similarPairs`), so unrelated memories are never compared; it yields to the event loop
 * every few milliseconds so the app answers while Health runs.
 */
export async function nearDuplicates(memories: DuplicateCandidate[], threshold: number): Promise<HealthReport['duplicates']> {
  const pause = slicePause();
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
    const sets: Uint32Array[] = [];
    for (const m of sorted) {
      sets.push(m.hashes ?? shingleHashes(m.body));
      await pause();
    }
    for (const [i, j] of await similarPairs(sets, threshold, pause)) {
      const a = sorted[i]!.path;
      const b = sorted[j]!.path;
      if (!seen.has(`${a}\0${b}`)) out.push({ a, b, why: 'similar-body' });
    }
  }
  return out;
}

/** Floating-point slack on `t·|s|`, so a bound is never rounded past a pair that meets it. */
const EPSILON = 1e-9;

/**
 * Every pair of sets (i < j, in that order) with |i ∩ j| / |i ∪ j| ≥ t: the all-pairs similarity join
 * with a prefix filter. Order each set's hashes rarest first (ties by value); a pair at Jaccard ≥ t shares
 * at least ⌈t·|s|⌉ of each set's hashes, so it shares one among each set's first |s| − ⌈t·|s|⌉ + 1, and
 * only those are indexed. Sets are visited smallest first and a candidate smaller than t times the set is
 * skipped (it cannot reach t); every candidate is then checked exactly by merging the two sorted sets.
 */
async function similarPairs(sets: Uint32Array[], t: number, pause: () => Promise<void> | null): Promise<[number, number][]> {
  // Each set's hashes as slot numbers of one table, so counts and postings live in arrays by slot.
  const table = new HashSlots(sets.reduce((n, s) => n + s.length, 0));
  const frequency = new Uint32Array(table.size);
  const slotsOf: Uint32Array[] = [];
  for (const set of sets) {
    const slots = set.map((h) => table.slot(h));
    for (const s of slots) frequency[s]!++;
    slotsOf.push(slots);
    await pause();
  }
  const bySize = sets.map((_, i) => i).sort((a, b) => sets[a]!.length - sets[b]!.length || a - b);
  const postings: (number[] | undefined)[] = [];
  const lastSeen = new Int32Array(sets.length).fill(-1);
  const pairs: [number, number][] = [];
  for (const i of bySize) {
    const set = sets[i]!;
    if (set.length === 0) continue;
    const slots = slotsOf[i]!;
    const order = Array.from(set.keys()).sort((a, b) => frequency[slots[a]!]! - frequency[slots[b]!]! || set[a]! - set[b]!);
    const prefix = set.length - Math.ceil(t * set.length - EPSILON) + 1;
    const minSize = t * set.length - EPSILON;
    for (let k = 0; k < prefix && k < order.length; k++) {
      const slot = slots[order[k]!]!;
      const list = postings[slot];
      if (!list) {
        postings[slot] = [i];
        continue;
      }
      // A shingle most memories share (a template's line) brings thousands of candidates: pause among them too.
      for (const j of list) {
        if (lastSeen[j] === i || sets[j]!.length < minSize) continue;
        lastSeen[j] = i;
        const inter = intersection(set, sets[j]!);
        if (inter / (set.length + sets[j]!.length - inter) >= t) pairs.push(i < j ? [i, j] : [j, i]);
        const due = pause();
        if (due) await due;
      }
      list.push(i);
      await pause();
    }
  }
  return pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
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
