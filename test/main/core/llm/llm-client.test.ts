import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient, type LlmStreamEvent } from '../../../../main/core/llm/index.js';
import { apiErrors, startFakeAnthropic, text, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const client = (url: string) => createLlmClient({ getApiKey: async () => 'sk-test', baseURL: url, model: 'claude-test' });
const req = (prompt = 'hi') => ({ system: [{ type: 'text' as const, text: 'You help.' }], tools: [], messages: [{ role: 'user' as const, content: prompt }] });

describe('LLM client against the fake Messages API', () => {
  it('streams text deltas and assembles tool_use input, with the message id and usage', async () => {
    fake = await startFakeAnthropic({ strict: true });
    fake.enqueue({ kind: 'message', content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'Hello there, friend' }, { type: 'tool_use', name: 'Read', input: { file_path: '/a/b.txt' } }] });
    const events: LlmStreamEvent[] = [];
    const r = await client(fake.url).stream(req(), { onEvent: (e) => events.push(e) });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.response.id).toMatch(/^msg_/);
    expect(r.response.stopReason).toBe('tool_use');
    expect(r.response.content.map((b) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(r.response.content[2]).toMatchObject({ name: 'Read', input: { file_path: '/a/b.txt' } });
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text).join('')).toBe('Hello there, friend');
    expect(r.response.usage.output_tokens).toBeGreaterThan(1);
  });

  it('puts cache breakpoints on the system prompt, the last tool and the newest message, never more than four', async () => {
    fake = await startFakeAnthropic({ strict: true });
    fake.enqueue(text('a'));
    const tool = { name: 'T', description: 'd', input_schema: { type: 'object' as const } };
    const cc = { type: 'ephemeral' as const };
    const r = await client(fake.url).stream(
      {
        system: [{ type: 'text', text: 'one', cache_control: cc }, { type: 'text', text: 'two' }],
        tools: [tool, tool],
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'x', cache_control: cc }] },
          { role: 'assistant', content: [{ type: 'text', text: 'y', cache_control: cc }] },
          { role: 'user', content: 'z' },
        ],
      },
      {},
    );
    expect(r.ok).toBe(true);
    const body = JSON.stringify(fake.requests[0]!.body);
    expect(body.match(/cache_control/g)).toHaveLength(3);
  });

  it('reports a repeated prefix as cache reads', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(text('a'), text('b'));
    const c = client(fake.url);
    const first = await c.stream(req('same prompt'), {});
    const second = await c.stream(req('same prompt'), {});
    expect(first.ok && first.response.usage.cache_read_input_tokens).toBe(0);
    expect(second.ok && second.response.usage.cache_read_input_tokens).toBeGreaterThan(0);
  });

  it.each([
    ['invalid_key', apiErrors.invalidKey()],
    ['rate_limited', apiErrors.rateLimited(17)],
    ['overloaded', apiErrors.overloaded()],
    ['context_too_long', apiErrors.promptTooLong()],
    ['context_too_long', apiErrors.requestTooLarge()],
    ['server_error', apiErrors.serverError()],
  ] as const)('maps the API error to %s, and the next request succeeds', async (kind, scripted) => {
    fake = await startFakeAnthropic({ strict: true });
    fake.enqueue(scripted, text('fine'));
    const c = client(fake.url);
    const r = await c.stream(req(), {});
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe(kind);
    expect(r.error.message.length).toBeGreaterThan(5);
    if (r.error.kind === 'rate_limited') expect(r.error.retryAfterSeconds).toBe(17);
    expect((await c.stream(req(), {})).ok).toBe(true);
  });

  it('maps a refused connection to offline', async () => {
    fake = await startFakeAnthropic();
    const url = fake.url;
    await fake.close();
    fake = null;
    const r = await client(url).stream(req(), {});
    expect(!r.ok && r.error.kind).toBe('offline');
  });

  it('maps a connection dropped mid-stream to offline and keeps the text seen so far', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(text('partial answer here', { dropAfterFrames: 3, chunkChars: 4 }));
    const r = await client(fake.url).stream(req(), {});
    expect(!r.ok && r.error.kind).toBe('offline');
    expect('partial answer here'.startsWith(r.ok ? 'x' : r.partialText)).toBe(true);
  });

  it('maps an abort to aborted', async () => {
    fake = await startFakeAnthropic();
    fake.enqueue(text('slow', { firstByteDelayMs: 5_000 }));
    const ac = new AbortController();
    const p = client(fake.url).stream(req(), { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const r = await p;
    expect(!r.ok && r.error.kind).toBe('aborted');
  });

  it('reports a missing key as invalid_key without calling the API', async () => {
    fake = await startFakeAnthropic();
    const r = await createLlmClient({ getApiKey: async () => null, baseURL: fake.url, model: 'm' }).stream(req(), {});
    expect(!r.ok && r.error.kind).toBe('invalid_key');
    expect(fake.requests).toHaveLength(0);
  });
});

describe('fake Messages API strictness', () => {
  it('rejects a first assistant message, an orphan tool_result, empty text and same-role runs in strict mode', async () => {
    fake = await startFakeAnthropic({ strict: true });
    const c = client(fake.url);
    const bad = [
      [{ role: 'assistant' as const, content: 'x' }],
      [{ role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_x', content: 'r' }] }],
      [{ role: 'user' as const, content: [{ type: 'text' as const, text: '' }, { type: 'text' as const, text: 'a' }] }],
      [{ role: 'user' as const, content: 'a' }, { role: 'user' as const, content: 'b' }],
    ];
    for (const messages of bad) {
      const r = await c.stream({ system: [], tools: [], messages }, {});
      expect(!r.ok && r.error.kind).toBe('bad_request');
    }
    expect(fake.requests.every((r) => r.rejected)).toBe(true);
  });
});
