import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultMemoryConfig } from '../common/config.js';
import { runForkedAgent, runQueryLoop, toApiMessages } from '../main/core/agent/index.js';
import { createLlmClient } from '../main/core/llm/index.js';
import { defaultTools, ReadState, realScope } from '../main/core/tools/index.js';
import type { TranscriptRecord } from '../main/core/transcripts/records.js';
import { startFakeAnthropic, text, toolCalls } from '../test/fakes/anthropic-server/index.js';
import { line, type Bench } from './harness.js';

/**
 * fork-cache (docs/architecture.md#benchmarks): the cache-hit ratio of a forked agent that sends the parent's
 * exact prefix, against a baseline fork that changes the tool list (which breaks the cache key).
 */
const TURNS = 6;

async function run(): Promise<ReturnType<typeof line>[]> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'strata-fork-bench-')));
  const fake = await startFakeAnthropic({ strict: true });
  try {
    const project = path.join(root, 'project');
    await fs.mkdir(project);
    await fs.writeFile(path.join(project, 'doc.md'), 'Strata remembers in plain markdown.\n'.repeat(400));
    const llm = createLlmClient({ getApiKey: async () => 'sk-bench', baseURL: fake.url, model: 'claude-bench' });
    const tools = defaultTools();
    const toolContext = {
      scope: await realScope({ project, memory: [], readOnly: [] }),
      readState: new ReadState(),
      limits: defaultMemoryConfig.agent,
    };
    const system = [{ type: 'text' as const, text: 'You are Strata, a careful assistant.\n'.repeat(50) }];
    const session = { sessionId: 'bench', cwd: project };
    const transcript: TranscriptRecord[] = [];
    for (let t = 0; t < TURNS; t++) {
      fake.enqueue(toolCalls([{ name: 'Read', input: { file_path: 'doc.md', offset: t * 50 + 1, limit: 50 } }]), text(`Turn ${t} done.`));
      await runQueryLoop({ llm, system, tools, toolContext, history: [...transcript], prompt: `Question ${t}`, session, onRecord: (r) => void transcript.push(r), maxTurns: 5 });
    }
    const fork = (forkTools: typeof tools) => {
      fake.enqueue(text('Notes updated.'));
      return runForkedAgent({
        llm,
        system,
        tools: forkTools,
        messages: toApiMessages(transcript),
        promptMessages: [{ role: 'user', content: 'Update the session notes.' }],
        toolContext,
        canUseTool: async () => ({ allow: false, message: 'denied' }),
        maxTurns: 1,
        session,
      });
    };
    const exact = await fork(tools);
    const changed = await fork(tools.filter((t) => t.name !== 'Delete'));
    return [
      line('fork-cache', 'cache-hit-ratio', 'ratio', exact.cacheHitRatio, changed.cacheHitRatio, {
        cacheRead: exact.usage.cache_read_input_tokens,
        input: exact.usage.input_tokens,
        cacheCreation: exact.usage.cache_creation_input_tokens,
      }),
    ];
  } finally {
    await fake.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

const bench: Bench = { name: 'fork-cache', run };
export default bench;
