import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../common/config.js';
import { createForkRunner, mergeSameRole, toApiMessages } from '../main/core/agent/index.js';
import { Compactor, type CompactOutcome } from '../main/core/compact/index.js';
import { createLlmClient } from '../main/core/llm/index.js';
import { silentLogger, systemClock } from '../main/core/ports.js';
import {
  DEFAULT_NOTES_TEMPLATE,
  SessionMemoryStateStore,
  ensureNotesFile,
  notesPathFor,
  realProjectPath,
  type ForkUsage,
  type SummarizerFork,
} from '../main/core/session-memory/index.js';
import { defaultTools, ReadState, realScope } from '../main/core/tools/index.js';
import { startFakeAnthropic, text } from '../test/fakes/anthropic-server/index.js';
import { benchNotes, generateTranscript } from './compaction-transcript.js';
import { line, type Bench } from './harness.js';

const SESSION = 'bench-tokens';
const SUMMARY = `<analysis>Went through the conversation in order.</analysis><summary>${'1. Primary request: explain the parser and its nested blocks. '.repeat(40)}</summary>`;

/**
 * compaction-tokens (docs/architecture.md#benchmarks): tokens sent to the model to compact the same
 * 200,000-token transcript — by session-memory compaction (the value; it makes no call) against
 * legacy compaction, whose forked summarizer sends the whole conversation to the fake API (the
 * baseline, as the fake reports it: input + cache creation + cache reads). Both run through the
 * Compactor, with a summarizer fork bound to the conversation exactly as the chat binds it.
 */
async function run(): Promise<ReturnType<typeof line>[]> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-tokens-')));
  const fake = await startFakeAnthropic({ strict: true, respond: () => text(SUMMARY) });
  try {
    const vault = path.join(root, 'vault');
    const project = path.join(root, 'project');
    await fs.mkdir(project, { recursive: true });
    const records = generateTranscript(project, SESSION);
    const llm = createLlmClient({ getApiKey: async () => 'sk-bench', baseURL: fake.url, model: 'claude-bench' });
    const tools = defaultTools();
    const system = [{ type: 'text' as const, text: 'You are Strata, a careful assistant.\n'.repeat(50) }];
    const toolContext = { scope: await realScope({ project, memory: [], readOnly: [] }), readState: new ReadState(), limits: defaultMemoryConfig.agent };
    const fork = createForkRunner({
      llm,
      getParent: () => ({ system, tools, messages: mergeSameRole(toApiMessages(records)) }),
      toolContext,
      session: { sessionId: SESSION, cwd: project },
      maxTurns: 1,
    });
    const store = new SessionMemoryStateStore(vault);
    const compactor = new Compactor({ vaultRoot: vault, config: defaultMemoryConfig.compaction, stateStore: store, clock: systemClock, logger: silentLogger });
    const notesPath = notesPathFor(vault, await realProjectPath(project), SESSION);

    const compact = async (): Promise<{ outcome: CompactOutcome; sent: number; output: number; calls: number }> => {
      const usage: ForkUsage[] = [];
      const summarize: SummarizerFork = async (args) => {
        const r = await (fork as SummarizerFork)(args);
        usage.push(r.usage);
        return r;
      };
      const requestsBefore = fake.requests.length;
      await store.update(SESSION, (s) => ({ ...s, lastSummarizedMessageId: records[records.length - 40]!.uuid! }));
      const outcome = await compactor.compact({ sessionId: SESSION, projectDir: project, records, trigger: 'auto', summarize });
      const sent = usage.reduce((n, u) => n + u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens, 0);
      return { outcome, sent, output: usage.reduce((n, u) => n + u.output_tokens, 0), calls: fake.requests.length - requestsBefore };
    };

    // Session-memory compaction: notes with content, the cursor 40 records before the end.
    await ensureNotesFile(notesPath, DEFAULT_NOTES_TEMPLATE);
    await fs.writeFile(notesPath, benchNotes(DEFAULT_NOTES_TEMPLATE));
    const sm = await compact();
    if (sm.outcome.path !== 'session-notes') throw new Error(`session-memory compaction fell back: ${sm.outcome.reason}`);
    // Legacy compaction of the same transcript: without notes the Compactor falls back to the summarizer.
    await fs.rm(notesPath);
    const legacy = await compact();
    if (legacy.outcome.path !== 'summarizer') throw new Error('legacy compaction did not run');
    if (fake.requests.some((r) => r.rejected)) throw new Error(`the fake API rejected a request: ${fake.requests.find((r) => r.rejected)!.rejected}`);

    return [
      line('compaction-tokens', 'tokens-sent-to-compact-200k', 'tokens', sm.sent, legacy.sent, {
        modelCalls: sm.calls,
        baselineModelCalls: legacy.calls,
        baselineOutputTokens: legacy.output,
        tokensBefore: sm.outcome.result.tokensBefore,
        tokensAfter: sm.outcome.result.tokensAfter,
        baselineTokensAfter: legacy.outcome.result.tokensAfter,
      }),
    ];
  } finally {
    await fake.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'compaction-tokens', run };
export default bench;
