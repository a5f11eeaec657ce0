import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { defaultMemoryConfig } from '../common/config.js';
import { mergeSameRole, toApiMessages } from '../main/core/agent/index.js';
import { SERVER_COMPACTION_INSTRUCTIONS } from '../main/core/chat/agent-setup.js';
import { Compactor } from '../main/core/compact/index.js';
import { createLlmClient, type LlmClient, type LlmRequest } from '../main/core/llm/index.js';
import type { ContextFeatures } from '../main/core/llm/context-features.js';
import { silentLogger, systemClock } from '../main/core/ports.js';
import { DEFAULT_NOTES_TEMPLATE, SessionMemoryStateStore, ensureNotesFile, notesPathFor, realProjectPath, type SummarizerFork } from '../main/core/session-memory/index.js';
import { defaultTools, toApiTools } from '../main/core/tools/index.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../test/fakes/anthropic-server/index.js';
import { benchNotes, generateTranscript } from './compaction-transcript.js';
import { line, type Bench } from './harness.js';

const SESSION = 'bench-context-fit';
const SUMMARY = `# Session Title\nExplaining the parser\n\n# Current State\n${'Walking through the nested blocks of the parser. '.repeat(60)}`;

const total = (u: Anthropic.Usage) => u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);

/**
 * context-fit (docs/memory.md "Fitting a long conversation"): the same 200,000-token conversation made to
 * fit three ways, measured as the tokens the API processes to answer the next question, compaction
 * included — Strata's notes compaction (no model call; the next request starts from the notes), the
 * API's server compaction (one request reads all 200k and writes the summary, then the next starts
 * from it) and the API's context editing (no extra call; old tool results are left out). The baseline
 * is the next request sent as it is. The fake API accounts tokens as the real one would bill them.
 */
async function run(): Promise<ReturnType<typeof line>[]> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-fit-')));
  const fake = await startFakeAnthropic({ strict: true });
  try {
    const vault = path.join(root, 'vault');
    const project = path.join(root, 'project');
    await fs.mkdir(project, { recursive: true });
    const records = generateTranscript(project, SESSION);
    const system = [{ type: 'text' as const, text: 'You are Strata, a careful assistant.\n'.repeat(50) }];
    const tools = toApiTools(defaultTools());
    const next = { role: 'user' as const, content: 'And what does the tokenizer do?' };
    const request = (messages: Anthropic.MessageParam[]): LlmRequest => ({ system, tools, messages: mergeSameRole([...messages, next]) });
    const client = (features?: ContextFeatures): LlmClient =>
      createLlmClient({ getApiKey: async () => 'sk-bench', baseURL: fake.url, model: 'claude-bench', ...(features ? { features } : {}) });
    const send = async (llm: LlmClient, messages: Anthropic.MessageParam[]) => {
      const r = await llm.stream(request(messages), {});
      if (!r.ok) throw new Error(r.error.message);
      return r.response;
    };
    const full = mergeSameRole(toApiMessages(records));
    const c = defaultMemoryConfig.contextFeatures;

    fake.enqueue(text('Plain answer.'));
    const plain = total((await send(client(), full)).usage);

    // Strata's notes compaction: no call; the next request is the compacted conversation.
    const compactor = new Compactor({ vaultRoot: vault, config: defaultMemoryConfig.compaction, stateStore: new SessionMemoryStateStore(vault), clock: systemClock, logger: silentLogger });
    const notesPath = notesPathFor(vault, await realProjectPath(project), SESSION);
    await ensureNotesFile(notesPath, DEFAULT_NOTES_TEMPLATE);
    await fs.writeFile(notesPath, benchNotes(DEFAULT_NOTES_TEMPLATE));
    const noSummarizer: SummarizerFork = async () => {
      throw new Error('notes compaction made a model call');
    };
    const notes = await compactor.compact({ sessionId: SESSION, projectDir: project, records, trigger: 'auto', summarize: noSummarizer });
    fake.enqueue(text('Answer after notes compaction.'));
    const afterNotes = total((await send(client(), toApiMessages(notes.records))).usage);

    // Server compaction: the paused request reads everything and writes the summary; the next starts from it.
    const server = client({ serverCompaction: { triggerTokens: c.serverCompactionTriggerTokens, instructions: SERVER_COMPACTION_INSTRUCTIONS } });
    fake.enqueue({ kind: 'message', content: [], compaction: SUMMARY, stopReason: 'compaction' }, text('Answer after server compaction.'));
    const paused = await send(server, full);
    const compacted = await compactor.compact({ sessionId: SESSION, projectDir: project, records, trigger: 'auto', summarize: noSummarizer, serverSummary: SUMMARY });
    const afterServer = total((await send(server, toApiMessages(compacted.records))).usage);
    const serverCost = total(paused.usage) + paused.usage.output_tokens + afterServer;

    // Context editing: one request; the API leaves old tool results out before the model reads it.
    fake.enqueue(text('Answer with old tool results cleared.'));
    const edited = await send(client({ clearToolUses: { triggerTokens: c.clearTriggerTokens, keepToolUses: c.clearKeepToolUses, clearAtLeastTokens: c.clearAtLeastTokens, excludeTools: [] } }), full);
    const afterEditing = total(edited.usage);

    assertAccepted(fake);
    return [
      line('context-fit', 'notes-compaction-tokens', 'tokens', afterNotes, plain, { modelCalls: 1, contextAfter: afterNotes, compactionCallTokens: 0 }),
      line('context-fit', 'server-compaction-tokens', 'tokens', serverCost, plain, { modelCalls: 2, contextAfter: afterServer, compactionCallTokens: total(paused.usage) + paused.usage.output_tokens }),
      line('context-fit', 'context-editing-tokens', 'tokens', afterEditing, plain, { modelCalls: 1, contextAfter: afterEditing, clearedTokens: edited.appliedEdits?.clearedInputTokens ?? 0 }),
    ];
  } finally {
    await fake.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

function assertAccepted(fake: FakeAnthropic): void {
  const rejected = fake.requests.find((r) => r.rejected);
  if (rejected) throw new Error(`the fake API rejected a request: ${rejected.rejected}`);
}

const bench: Bench = { name: 'context-fit', run };
export default bench;
