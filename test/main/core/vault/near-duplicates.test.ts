import { describe, expect, it } from 'vitest';
import { nearDuplicates, normaliseDescription, shingleHashes, shingles, type DuplicateCandidate } from '../../../../main/core/vault/near-duplicates.js';

/** The definition itself (docs/memory.md#vault-upkeep), all pairs by brute force over the string shingles. */
function bruteForce(memories: DuplicateCandidate[], t: number): { a: string; b: string; why: string }[] {
  const sorted = [...memories].sort((x, y) => x.path.localeCompare(y.path, 'en', { numeric: true }));
  const sets = sorted.map((m) => shingles(m.body));
  const pairs: { a: string; b: string; why: string }[] = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const [a, b] = [sorted[i]!, sorted[j]!];
      if (a.group !== b.group) continue;
      const d = normaliseDescription(a.description);
      if (d && d === normaliseDescription(b.description)) pairs.push({ a: a.path, b: b.path, why: 'description' });
      else {
        const inter = [...sets[i]!].filter((s) => sets[j]!.has(s)).length;
        const union = sets[i]!.size + sets[j]!.size - inter;
        if (union > 0 && inter / union >= t) pairs.push({ a: a.path, b: b.path, why: 'similar-body' });
      }
    }
  }
  return pairs;
}

/** Deterministic random numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Bodies from a small skewed vocabulary, many of them edited copies of others (a word changed, added or cut). */
function corpus(n: number, seed: number): DuplicateCandidate[] {
  const r = random(seed);
  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
  const pick = () => words[Math.floor(r() * r() * words.length)]!;
  const out: DuplicateCandidate[] = [];
  for (let i = 0; i < n; i++) {
    let body: string[];
    if (out.length > 0 && r() < 0.6) {
      body = out[Math.floor(r() * out.length)]!.body.split(' ');
      const edits = Math.floor(r() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(r() * (body.length + 1));
        const op = r();
        if (op < 0.4) body[at] = pick();
        else if (op < 0.7) body.splice(at, 0, pick());
        else body.splice(at, 1);
      }
    } else body = Array.from({ length: 1 + Math.floor(r() * 30) }, pick);
    out.push({ path: `m${i}.md`, group: `g${Math.floor(r() * 3)}`, description: r() < 0.05 ? 'Same line' : `d${i}`, body: body.join(' ') });
  }
  return out;
}


describe('near-duplicate detection at scale', () => {
  it('hashes exactly the word 3-shingles, case-blind, in any script', () => {
    for (const body of ['A b c d', 'Tabs, not spaces! Tabs not spaces.', 'Ünïcode wörds — 日本 語 テスト 123', 'one', 'two words', '']) {
      expect(shingleHashes(body).length).toBe(shingles(body).size);
    }
    expect([...shingleHashes('Tabs NOT spaces')]).toEqual([...shingleHashes('tabs, not... spaces')]);
    expect([...shingleHashes('tabs not spaces')]).not.toEqual([...shingleHashes('tabs not space')]);
  });

  it('finds a near-duplicate pair among memories that share common boilerplate', async () => {
    const boilerplate = 'the user prefers that the agent always';
    const memories = Array.from({ length: 60 }, (_, i) => ({
      path: `m${i}.md`,
      group: 'g',
      description: `d${i}`,
      body: `${boilerplate} topic${i} alpha${i} beta${i} gamma${i} delta${i}`,
    }));
    memories.push({ path: 'copy.md', group: 'g', description: 'other', body: memories[7]!.body });
    expect(await nearDuplicates(memories, 0.8)).toEqual([{ a: 'copy.md', b: 'm7.md', why: 'similar-body' }]);
  });

  it('finds exactly the pairs of the definition, at any threshold', async () => {
    for (const [seed, t] of [[1, 0.8], [2, 0.6], [3, 0.5], [4, 0.9], [5, 1]] as const) {
      const memories = corpus(300, seed);
      const expected = bruteForce(memories, t);
      expect(expected.filter((p) => p.why === 'similar-body').length).toBeGreaterThan(20);
      const sortPairs = (ps: { a: string; b: string; why: string }[]) => [...ps].sort((x, y) => `${x.a} ${x.b}`.localeCompare(`${y.a} ${y.b}`));
      expect(sortPairs(await nearDuplicates(memories, t))).toEqual(sortPairs(expected));
    }
  });

  it('lets the event loop turn while it compares thousands of memories', async () => {
    const memories = corpus(4_000, 7).map((m) => ({ ...m, group: 'g' }));
    let turns = 0;
    let done = false;
    const tick = (): void => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const pairs = await nearDuplicates(memories, 0.8);
    done = true;
    expect(pairs.length).toBeGreaterThan(100);
    expect(turns).toBeGreaterThan(1);
  });
});
