import type { EvalQuestion, QuestionCategory } from './fixture.js';

/** How one recall method did on the fixture's questions. */
export interface RecallScore {
  /** Questions that have an answer, and how many held it in the first `k` recalled. */
  answerable: number;
  hits: number;
  /** hits ÷ answerable. */
  recallAtK: number;
  byCategory: Partial<Record<QuestionCategory, { questions: number; hits: number; rate: number }>>;
  /** Knowledge updates where the superseded memory was recalled ahead of the newer one (or without it). */
  staleAhead: number;
  /** Abstention questions, and the share of them for which nothing was recalled (the right answer). */
  abstentions: number;
  abstentionRate: number;
}

const rate = (n: number, d: number) => (d === 0 ? 0 : n / d);

/**
 * Scores recalled lists against the labels. `recalled` maps a question id to the files recalled for it,
 * best first; every question must have an entry (a missing one is a bench bug, not a miss).
 */
export function scoreRecall(questions: readonly EvalQuestion[], recalled: ReadonlyMap<string, readonly string[]>, k = 5): RecallScore {
  const byCategory: RecallScore['byCategory'] = {};
  let answerable = 0;
  let hits = 0;
  let staleAhead = 0;
  let abstentions = 0;
  let abstained = 0;
  for (const q of questions) {
    const list = recalled.get(q.id);
    if (!list) throw new Error(`no recall recorded for question ${q.id}`);
    const top = list.slice(0, k);
    const cat = (byCategory[q.category] ??= { questions: 0, hits: 0, rate: 0 });
    cat.questions++;
    if (q.answer === null) {
      abstentions++;
      if (top.length === 0) {
        abstained++;
        cat.hits++;
      }
      continue;
    }
    answerable++;
    const at = top.indexOf(q.answer);
    if (at >= 0) {
      hits++;
      cat.hits++;
    }
    if (q.superseded !== undefined) {
      const old = top.indexOf(q.superseded);
      if (old >= 0 && (at < 0 || old < at)) staleAhead++;
    }
  }
  for (const c of Object.values(byCategory)) c.rate = rate(c.hits, c.questions);
  return { answerable, hits, recallAtK: rate(hits, answerable), byCategory, staleAhead, abstentions, abstentionRate: rate(abstained, abstentions) };
}
