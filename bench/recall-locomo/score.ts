import { CATEGORIES, type LocomoCategory, type LocomoConversation, type LocomoQuestion } from './dataset.js';

/** Evidence Recall@k and Hit@k of one method over some questions, overall and by category. */
export interface EvidenceScore {
  questions: number;
  recall: number;
  hit: number;
  byCategory: Record<LocomoCategory, { questions: number; recall: number; hit: number }>;
}

/** Share of a question's evidence ids held by `files` (relative paths into the conversation's memories). */
export function evidenceShare(q: LocomoQuestion, files: readonly string[], evidenceOf: ReadonlyMap<string, readonly string[]>): number {
  const held = new Set(files.flatMap((f) => evidenceOf.get(f) ?? []));
  return q.evidence.filter((e) => held.has(e)).length / q.evidence.length;
}

export const evidenceByFile = (c: LocomoConversation): Map<string, string[]> => new Map(c.memories.map((m) => [m.relPath, m.evidence]));

/**
 * Scores recalled lists (question id → files, best first; every question must have one) at `k`.
 */
export function scoreEvidence(conversations: readonly LocomoConversation[], recalled: ReadonlyMap<string, readonly string[]>, k = 5): EvidenceScore {
  const sums = { questions: 0, recall: 0, hit: 0 };
  const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, { questions: 0, recall: 0, hit: 0 }])) as EvidenceScore['byCategory'];
  for (const c of conversations) {
    const evidenceOf = evidenceByFile(c);
    for (const q of c.questions) {
      const list = recalled.get(q.id);
      if (!list) throw new Error(`no recall recorded for question ${q.id}`);
      const share = evidenceShare(q, list.slice(0, k), evidenceOf);
      for (const s of [sums, byCategory[q.category]]) {
        s.questions++;
        s.recall += share;
        s.hit += share > 0 ? 1 : 0;
      }
    }
  }
  const mean = (s: { questions: number; recall: number; hit: number }) => ({
    questions: s.questions,
    recall: s.questions ? s.recall / s.questions : 0,
    hit: s.questions ? s.hit / s.questions : 0,
  });
  return {
    ...mean(sums),
    byCategory: Object.fromEntries(CATEGORIES.map((c) => [c, mean(byCategory[c])])) as EvidenceScore['byCategory'],
  };
}

/**
 * The most evidence any `k` of `files` could hold for `q`, chosen greedily (each pick the file adding the
 * most of the question's evidence still uncovered): what a perfect picker among those files reaches.
 */
export function greedyBest(q: LocomoQuestion, files: Iterable<string>, evidenceOf: ReadonlyMap<string, readonly string[]>, k = 5): string[] {
  const wanted = new Set(q.evidence);
  const useful = [...files].filter((f) => (evidenceOf.get(f) ?? []).some((e) => wanted.has(e)));
  const chosen: string[] = [];
  while (chosen.length < k && wanted.size > 0) {
    let best: string | null = null;
    let gain = 0;
    for (const f of useful) {
      if (chosen.includes(f)) continue;
      const g = (evidenceOf.get(f) ?? []).filter((e) => wanted.has(e)).length;
      if (g > gain) [best, gain] = [f, g];
    }
    if (!best) break;
    chosen.push(best);
    for (const e of evidenceOf.get(best) ?? []) wanted.delete(e);
  }
  return chosen;
}

/** The ceiling: what the greedy best five of all the memories would score. */
export function ceiling(conversations: readonly LocomoConversation[], k = 5): EvidenceScore {
  const recalled = new Map<string, string[]>();
  for (const c of conversations) {
    const evidenceOf = evidenceByFile(c);
    for (const q of c.questions) recalled.set(q.id, greedyBest(q, evidenceOf.keys(), evidenceOf, k));
  }
  return scoreEvidence(conversations, recalled, k);
}
