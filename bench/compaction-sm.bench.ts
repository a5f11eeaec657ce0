import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../common/config.js';
import { Compactor, readTranscriptFile } from '../main/core/compact/index.js';
import { silentLogger, systemClock } from '../main/core/ports.js';
import {
  DEFAULT_NOTES_TEMPLATE,
  SessionMemoryStateStore,
  ensureNotesFile,
  notesPathFor,
  realProjectPath,
  type SummarizerFork,
} from '../main/core/session-memory/index.js';
import { generateTranscript } from './compaction-transcript.js';
import { line, median, type Bench } from './harness.js';

const RUNS = 9;
const SESSION = 'bench-session';

/**
 * ms to session-memory-compact a 200,000-token transcript end to end (read the JSONL, wait check, read
 * notes, keep-index, result), with `modelCalls` counting summarizer calls: it must stay 0.
 * Baseline: null — the alternative (legacy compaction) is a model call, measured by `compaction-tokens`.
 */
const bench: Bench = {
  name: 'compaction-sm',
  async run() {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-sm-'));
    try {
      const vault = path.join(dir, 'vault');
      const project = path.join(dir, 'project');
      await fs.mkdir(project, { recursive: true });
      const records = generateTranscript(project, SESSION);
      const transcript = path.join(dir, `${SESSION}.jsonl`);
      await fs.writeFile(transcript, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      const notesPath = notesPathFor(vault, await realProjectPath(project), SESSION);
      await ensureNotesFile(notesPath, DEFAULT_NOTES_TEMPLATE);
      await fs.writeFile(notesPath, DEFAULT_NOTES_TEMPLATE.replace('# Current State\n', `# Current State\n${'Working on the parser. '.repeat(200)}\n`));
      const store = new SessionMemoryStateStore(vault);
      const cursor = records[records.length - 40]!.uuid!;
      let modelCalls = 0;
      const summarize: SummarizerFork = async () => {
        modelCalls++;
        return { text: 'unused', usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, cacheHitRatio: 0 };
      };
      const compactor = new Compactor({ vaultRoot: vault, config: defaultMemoryConfig.compaction, stateStore: store, clock: systemClock, logger: silentLogger });
      const times: number[] = [];
      let tokensBefore = 0;
      let tokensAfter = 0;
      for (let i = 0; i < RUNS; i++) {
        await store.update(SESSION, (s) => ({ ...s, lastSummarizedMessageId: cursor }));
        const started = performance.now();
        const out = await compactor.compact({
          sessionId: SESSION,
          projectDir: project,
          records: await readTranscriptFile(transcript),
          transcriptPath: transcript,
          trigger: 'auto',
          summarize,
        });
        times.push(performance.now() - started);
        if (out.path !== 'session-notes') throw new Error(`session-memory compaction fell back: ${out.reason}`);
        tokensBefore = out.result.tokensBefore;
        tokensAfter = out.result.tokensAfter;
      }
      return [line('compaction-sm', 'compact-200k-tokens', 'ms', median(times), null, { modelCalls, tokensBefore, tokensAfter })];
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  },
};
export default bench;
