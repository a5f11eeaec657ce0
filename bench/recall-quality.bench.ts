import { promises as fs } from 'node:fs';
import { defaultMemoryConfig } from '../common/config.js';
import { MemoryRecall, type RecallRequest } from '../main/core/auto-memory/memory-recall.js';
import { sideQueryOf } from '../main/core/chat/agent-setup.js';
import { createLlmClient } from '../main/core/llm/index.js';
import { startFakeAnthropic } from '../test/fakes/anthropic-server/index.js';
import { writeMemoryFolder } from './memory-folder.js';
import { line, type Bench, type BenchLine } from './harness.js';
import { generateRecallFixture, type EvalFixture } from './recall-eval/fixture.js';
import { scoreRecall, type RecallScore } from './recall-eval/score.js';
import { scriptedSelectorResponder } from './recall-eval/scripted-selector.js';

/**
 * recall-quality (docs/memory-upkeep.md "Measuring recall"): Recall@5 of the right memory over a
 * generated 500-memory vault and 200+ questions in the shape of LongMemEval, through the product's
 * MemoryRecall: once offline (the local ranker) and once with the model selector (the real SDK against
 * the fake Messages API, answering from the descriptions). Each line's baseline is the figure recorded
 * when the bench was written: the figure to beat (ratio > 1 means better).
 */
const TO_BEAT = {
  offlineRecall: 0.717,
  offlineAbstention: 0.4,
  modelRecall: 0.939,
  modelAbstention: 1,
};

/** Asks every question on a fresh session (nothing seen, no bytes used); returns recalled files and methods. */
async function ask(fixture: EvalFixture, recall: MemoryRecall, request: Partial<RecallRequest>) {
  const recalled = new Map<string, string[]>();
  const methods = new Map<string, number>();
  for (const q of fixture.questions) {
    const result = await recall.recall({ query: q.question, seen: new Set(), sessionBytesUsed: 0, ...request });
    recalled.set(q.id, result.memories.map((m) => m.relPath));
    methods.set(result.method, (methods.get(result.method) ?? 0) + 1);
  }
  return { recalled, methods: Object.fromEntries(methods) };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
const categories = (s: RecallScore) => Object.fromEntries(Object.entries(s.byCategory).map(([k, v]) => [k, `${v.hits}/${v.questions}`]));

const bench: Bench = {
  name: 'recall-quality',
  async run() {
    const fixture = generateRecallFixture();
    const dir = await writeMemoryFolder('strata-bench-recall-quality-', fixture.memories);
    // What each question's selector prompt listed, by the question it carried.
    const listedFor = new Map<string, Set<string>>();
    const fake = await startFakeAnthropic({
      respond: (request) => {
        const user = JSON.stringify(request.messages ?? []);
        const query = /Query: (.*?)\\n/.exec(user)?.[1];
        if (query) listedFor.set(query, new Set([...user.matchAll(/\\n- (?:\[[^\]]+\] )?(\S+\.md) \(/g)].map((m) => m[1]!)));
        return scriptedSelectorResponder(request);
      },
    });
    const out: BenchLine[] = [];
    try {
      const options = { memoryDir: dir, config: defaultMemoryConfig.autoMemory, clock: { now: () => fixture.now } };
      const shape = { memories: fixture.memories.length, questions: fixture.questions.length };

      const offline = await ask(fixture, new MemoryRecall(options), { offline: true });
      const o = scoreRecall(fixture.questions, offline.recalled);
      out.push(line('recall-quality', 'offline-recall@5', 'fraction', o.recallAtK, TO_BEAT.offlineRecall, { ...shape, ...categories(o), staleAhead: o.staleAhead }));
      out.push(line('recall-quality', 'offline-abstention', 'fraction', o.abstentionRate, TO_BEAT.offlineAbstention, { abstentions: o.abstentions }));

      const small = createLlmClient({ getApiKey: async () => 'sk-bench', baseURL: fake.url, model: 'claude-bench-small', maxTokens: 1024 });
      const model = await ask(fixture, new MemoryRecall({ ...options, sideQuery: sideQueryOf(small) }), {});
      const m = scoreRecall(fixture.questions, model.recalled);
      // The selector sees the shortlist (docs/memory.md#recall "Two stages"): how many answers it could see at all.
      const visible = fixture.questions.filter((q) => q.answer !== null && listedFor.get(q.question)?.has(q.answer));
      const visibleHits = visible.filter((q) => model.recalled.get(q.id)!.slice(0, 5).includes(q.answer!)).length;
      out.push(
        line('recall-quality', 'model-recall@5', 'fraction', m.recallAtK, TO_BEAT.modelRecall, {
          ...shape, ...categories(m), staleAhead: m.staleAhead, methods: model.methods,
          answerInManifest: `${visible.length}/${m.answerable}`, recallWhenListed: round(visibleHits / Math.max(1, visible.length)),
        }),
      );
      out.push(line('recall-quality', 'model-abstention', 'fraction', m.abstentionRate, TO_BEAT.modelAbstention, { abstentions: m.abstentions }));
    } finally {
      await fake.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
    return out;
  },
};
export default bench;
