import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HookContext } from '../../../../main/core/agent/index.js';
import type { Tool } from '../../../../main/core/tools/index.js';
import type { MessageRecord } from '../../../../main/core/transcripts/records.js';
import { apiErrors, text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { agentFixture, slowTool } from './agent-fixture.js';

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});
async function fixture(...args: Parameters<typeof agentFixture>) {
  const f = await agentFixture(...args);
  cleanup = f.close;
  return f;
}

const lastRequestBlocks = (f: Awaited<ReturnType<typeof agentFixture>>) => JSON.stringify(f.fake.requests.at(-1)!.body.messages);

describe('query loop', () => {
  it('runs a multi-step tool loop, emitting chained records with the API message id, and calls the hooks', async () => {
    const f = await fixture();
    await fs.writeFile(path.join(f.project, 'notes.txt'), 'alpha\n');
    f.fake.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: 'notes.txt' } }]),
      toolCalls([{ name: 'Write', input: { file_path: 'out.txt', content: 'beta' } }]),
      text('All done.'),
    );
    const seen: HookContext[] = [];
    const turns: HookContext[] = [];
    const r = await f.turn('copy it', { hooks: { afterModelResponse: (c) => void seen.push(c), afterTurn: (c) => void turns.push(c) } });
    expect(r.status).toBe('completed');
    expect(r.text).toBe('All done.');
    expect(await fs.readFile(path.join(f.project, 'out.txt'), 'utf8')).toBe('beta');
    expect(f.transcript.map((x) => x.type)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    const recs = r.newRecords;
    recs.slice(1).forEach((rec, i) => expect(rec.parentUuid).toBe(recs[i]!.uuid));
    expect(recs[1]!.message).toMatchObject({ id: expect.stringMatching(/^msg_/), model: 'claude-test', usage: expect.any(Object) });
    expect(recs[1]).toMatchObject({ sessionId: 'sess-1', cwd: f.project });
    expect(JSON.stringify(recs[2]!.message.content)).toContain('     1\\talpha');
    expect(seen).toHaveLength(3);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.isFork).toBe(false);
    expect(f.fake.requests.every((q) => q.rejected === null)).toBe(true);
  });

  it('keeps the turn going when a hook throws, logging a warning', async () => {
    const f = await fixture();
    f.fake.enqueue(text('fine'));
    const warnings: string[] = [];
    const logger = { info() {}, error() {}, warn: (m: string) => void warnings.push(m) };
    const r = await f.turn('hi', { logger, hooks: { afterTurn: () => { throw new Error('memory engine broke'); } } });
    expect(r.status).toBe('completed');
    expect(warnings).toEqual(['agent hook afterTurn failed']);
  });

  it('sends thinking blocks back with their signature on the next step', async () => {
    const f = await fixture();
    f.fake.enqueue(
      { kind: 'message', content: [{ type: 'thinking', thinking: 'plan', signature: 'sig1' }, { type: 'tool_use', name: 'Glob', input: { pattern: '*' } }] },
      text('done'),
    );
    expect((await f.turn('go')).status).toBe('completed');
    expect(lastRequestBlocks(f)).toContain('"signature":"sig1"');
    expect(f.fake.requests.at(-1)!.rejected).toBeNull();
  });

  it('runs independent read-only calls concurrently and keeps result order', async () => {
    let running = 0;
    let peak = 0;
    const probe: Tool<{ n: number }> = {
      name: 'Probe',
      description: 'probe',
      readOnly: true,
      inputSchema: z.object({ n: z.number() }),
      run: async ({ n }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        await new Promise((r) => setImmediate(r));
        running--;
        return { content: `probe ${n}` };
      },
    };
    const f = await fixture({ extraTools: [probe as Tool] });
    f.fake.enqueue(toolCalls([1, 2, 3].map((n) => ({ name: 'Probe', input: { n } }))), text('ok'));
    await f.turn('go');
    expect(peak).toBe(3);
    const results = (f.transcript[2] as MessageRecord).message.content as { content: string }[];
    expect(results.map((b) => b.content)).toEqual(['probe 1', 'probe 2', 'probe 3']);
  });

  it('feeds a permission denial back to the model as an error result', async () => {
    const f = await fixture({ answer: 'deny' });
    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: 'x.txt', content: 'no' } }]), text('Understood.'));
    const r = await f.turn('write x');
    expect(r.status).toBe('completed');
    expect(lastRequestBlocks(f)).toMatch(/"is_error":true/);
    expect(lastRequestBlocks(f)).toContain('declined');
    await expect(fs.stat(path.join(f.project, 'x.txt'))).rejects.toThrow();
  });

  it('denies a call through canUseTool with its message', async () => {
    const f = await fixture();
    f.fake.enqueue(toolCalls([{ name: 'Glob', input: { pattern: '*' } }]), text('ok'));
    await f.turn('go', { canUseTool: async () => ({ allow: false, message: 'Only Edit is allowed here.' }) });
    expect(lastRequestBlocks(f)).toContain('Only Edit is allowed here.');
  });

  it.each([
    ['invalid_key', apiErrors.invalidKey()],
    ['rate_limited', apiErrors.rateLimited(3)],
    ['overloaded', apiErrors.overloaded()],
    ['context_too_long', apiErrors.promptTooLong()],
  ] as const)('returns %s as an error value, and a retry of the turn is accepted', async (kind, scripted) => {
    const f = await fixture();
    f.fake.enqueue(scripted, text('back'));
    const r = await f.turn('hello');
    expect(r).toMatchObject({ status: 'error', error: { kind } });
    const retry = await f.turn(undefined);
    expect(retry.status).toBe('completed');
    expect(f.fake.requests.at(-1)!.rejected).toBeNull();
  });

  it('returns offline for a refused connection', async () => {
    const f = await fixture();
    await f.fake.close();
    cleanup = null;
    expect((await f.turn('hello')).error?.kind).toBe('offline');
  });
});

describe('Stop', () => {
  const phases = {
    'before the first byte': { script: text('late', { firstByteDelayMs: 10_000 }), when: 'request' },
    'mid-text': { script: text('a long streamed answer', { chunkDelayMs: 30, chunkChars: 2 }), when: 'text' },
    'mid-tool_use JSON': {
      script: toolCalls([{ name: 'Write', input: { file_path: 'x.txt', content: 'y'.repeat(200) } }], { chunkDelayMs: 20, chunkChars: 4 }),
      when: 'message_start',
    },
    'during a slow tool': { script: toolCalls([{ name: 'Read', input: { file_path: 'a' } }, { name: 'Slow', input: {} }]), when: 'tool_start:Slow' },
  } as const;

  it.each(Object.keys(phases) as (keyof typeof phases)[])('aborts %s and the next turn is accepted by the strict fake', async (phase) => {
    const { script, when } = phases[phase];
    const f = await fixture({ extraTools: [slowTool as Tool] });
    f.fake.enqueue(script, text('next answer'));
    const ac = new AbortController();
    if (when === 'request') {
      const timer = setInterval(() => {
        if (f.fake.requests.length > 0) {
          clearInterval(timer);
          ac.abort();
        }
      }, 5);
    }
    const r = await f.turn('start', {
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type === when || (e.type === 'tool_start' && when === `tool_start:${e.name}`)) ac.abort();
      },
    });
    expect(r.status).toBe('aborted');
    const next = await f.turn('continue');
    expect(next.status).toBe('completed');
    expect(f.fake.requests.at(-1)!.rejected).toBeNull();
    if (phase === 'during a slow tool') expect(lastRequestBlocks(f)).toContain('interrupted');
  });
});
