import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { runQueryLoop, type QueryLoopOptions } from '../../../../main/core/agent/index.js';
import { createLlmClient } from '../../../../main/core/llm/index.js';
import { defaultTools, ReadState, realScope, type PermissionAnswer, type Tool } from '../../../../main/core/tools/index.js';
import type { MessageRecord, TranscriptRecord } from '../../../../main/core/transcripts/records.js';
import { startFakeAnthropic } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';

/** A tool that runs until Stop: the "slow tool" phase of the abort tests. */
export const slowTool: Tool<{ ms?: number }> = {
  name: 'Slow',
  description: 'Waits.',
  readOnly: false,
  inputSchema: z.object({ ms: z.number().optional() }),
  run: (_input, ctx) =>
    new Promise((resolve) => ctx.signal?.addEventListener('abort', () => resolve({ content: 'aborted late' }), { once: true })),
};

/** A project, a strict fake and a loop runner that keeps the transcript the way the caller would. */
export async function agentFixture(options: { answer?: PermissionAnswer; extraTools?: Tool[] } = {}) {
  const root = await tempDir();
  const project = path.join(root, 'project');
  const memory = path.join(root, 'memory');
  await fs.mkdir(project, { recursive: true });
  await fs.mkdir(memory, { recursive: true });
  const fake = await startFakeAnthropic({ strict: true });
  const llm = createLlmClient({ getApiKey: async () => 'sk-test', baseURL: fake.url, model: 'claude-test' });
  const transcript: TranscriptRecord[] = [];
  const tools = [...defaultTools(), ...((options.extraTools ?? []) as Tool[])];
  const toolContext = {
    scope: await realScope({ project, memory: [memory], readOnly: [] }),
    readState: new ReadState(),
    limits: defaultMemoryConfig.agent,
    permissionGate: { requestPermission: async () => options.answer ?? 'allow_once' },
  };
  const system = [{ type: 'text' as const, text: 'You are Strata.' }];
  const turn = (prompt: string | undefined, extra: Partial<QueryLoopOptions> = {}) =>
    runQueryLoop({
      llm,
      system,
      tools,
      toolContext,
      history: [...transcript],
      prompt,
      session: { sessionId: 'sess-1', cwd: project },
      onRecord: (r: MessageRecord) => void transcript.push(r),
      maxTurns: 10,
      ...extra,
    });
  return { project, memory, fake, llm, transcript, tools, toolContext, system, turn, close: () => fake.close() };
}
