import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createForkRunner, ForkFailedError, runForkedAgent, toApiMessages } from '../../../../main/core/agent/index.js';
import { apiErrors, text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { agentFixture } from './agent-fixture.js';

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe('runForkedAgent', () => {
  it('sends the parent prefix unchanged, gets cache reads for it, and is restricted by canUseTool', async () => {
    const f = await agentFixture();
    cleanup = f.close;
    await fs.writeFile(path.join(f.project, 'big.txt'), 'lorem ipsum dolor sit amet\n'.repeat(300));
    f.fake.enqueue(toolCalls([{ name: 'Read', input: { file_path: 'big.txt' } }]), text('Read it.'));
    await f.turn('read big.txt');
    const parentTools = f.fake.requests.at(-1)!.body.tools;

    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: 'z.txt', content: 'no' } }]), text('Notes updated.'));
    const asked: string[] = [];
    const fork = await runForkedAgent({
      llm: f.llm,
      system: f.system,
      tools: f.tools,
      messages: toApiMessages(f.transcript),
      promptMessages: [{ role: 'user', content: 'Update the notes.' }],
      toolContext: f.toolContext,
      canUseTool: async (name) => (asked.push(name), { allow: false, message: 'Only Edit of the notes file is allowed.' }),
      maxTurns: 3,
      session: { sessionId: 'sess-1', cwd: f.project },
    });
    expect(fork.status).toBe('completed');
    expect(fork.text).toBe('Notes updated.');
    expect(asked).toEqual(['Write']);
    await expect(fs.stat(path.join(f.project, 'z.txt'))).rejects.toThrow();
    const forkRequest = f.fake.requests.at(-2)!.body;
    expect(forkRequest.tools).toEqual(parentTools);
    expect(fork.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(fork.cacheHitRatio).toBeGreaterThan(0.5);
    expect(fork.records.every((r) => r.isSidechain)).toBe(true);
    expect(f.fake.requests.every((r) => r.rejected === null)).toBe(true);
  });

  it('binds to the parent of the moment as a ForkRunner that returns usage, ratio and text', async () => {
    const f = await agentFixture();
    cleanup = f.close;
    f.fake.enqueue(text('Parent answer '.repeat(40)));
    await f.turn('a question '.repeat(40));
    const runner = createForkRunner({
      llm: f.llm,
      getParent: () => ({ system: f.system, tools: f.tools, messages: toApiMessages(f.transcript) }),
      toolContext: f.toolContext,
      session: { sessionId: 'sess-1', cwd: f.project },
      maxTurns: 2,
    });
    f.fake.enqueue(text('Summary.'));
    const r = await runner({ promptMessages: [{ role: 'user', content: 'Summarize.' }], canUseTool: async () => ({ allow: true }), maxTurns: 1 });
    expect(r.text).toBe('Summary.');
    expect(r.cacheHitRatio).toBeGreaterThan(0);
    expect(r.usage.output_tokens).toBeGreaterThan(0);
  });

  it('rejects with ForkFailedError when the API fails, so no caller counts the fork as done', async () => {
    const f = await agentFixture();
    cleanup = f.close;
    const runner = createForkRunner({
      llm: f.llm,
      getParent: () => ({ system: f.system, tools: f.tools, messages: [] }),
      toolContext: f.toolContext,
      session: { sessionId: 'sess-1', cwd: f.project },
      maxTurns: 2,
    });
    f.fake.enqueue(apiErrors.serverError());
    const failed = runner({ promptMessages: [{ role: 'user', content: 'Update the notes.' }], canUseTool: async () => ({ allow: true }) });
    await expect(failed).rejects.toBeInstanceOf(ForkFailedError);
    await expect(failed).rejects.toMatchObject({ status: 'error', error: { kind: 'server_error', status: 500 } });
  });
});
