import { afterEach, describe, expect, it } from 'vitest';
import { echoResponder, startFakeAnthropic, type FakeAnthropic } from './index.js';

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const post = (body: unknown) =>
  fetch(`${fake!.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const cc = { type: 'ephemeral' };

describe('fake Messages API', () => {
  it('rejects more than four cache_control breakpoints like the real API', async () => {
    fake = await startFakeAnthropic({ respond: echoResponder });
    const blocks = Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `b${i}`, cache_control: cc }));
    const res = await post({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: blocks }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('maximum of 4');
  });

  it('takes mid-conversation system turns only under their beta, as newer Claude Code sends them', async () => {
    fake = await startFakeAnthropic({ respond: echoResponder });
    const body = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 'Environment.' }] };
    const plain = await post(body);
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { error: { message: string } }).error.message).toContain('unexpected role "system"');
    const headers = { 'content-type': 'application/json', 'anthropic-beta': 'claude-code-20250219,per-turn-control-2026-07-01' };
    const beta = await fetch(`${fake.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(beta.status).toBe(200);
    const onlySystem = await fetch(`${fake.url}/v1/messages`, { method: 'POST', headers, body: JSON.stringify({ ...body, messages: [{ role: 'system', content: 'x' }] }) });
    expect(onlySystem.status).toBe(400);
  });

  it('rejects an assistant tool_use left without a result in the next message', async () => {
    fake = await startFakeAnthropic({ respond: echoResponder });
    const res = await post({
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
        { role: 'user', content: 'b' },
      ],
    });
    expect(res.status).toBe(400);
  });

  it('accepts same-role runs unless strict, and counts cache writes then reads per breakpoint prefix', async () => {
    fake = await startFakeAnthropic({ respond: echoResponder });
    const body = {
      model: 'm',
      max_tokens: 5,
      system: [{ type: 'text', text: 'sys '.repeat(100), cache_control: cc }],
      messages: [{ role: 'user', content: 'a' }, { role: 'user', content: [{ type: 'text', text: 'b', cache_control: cc }] }],
    };
    const first = (await (await post(body)).json()) as { usage: Record<string, number>; content: { text: string }[] };
    expect(first.content[0]!.text).toBe('Echo: b');
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(100);
    const second = (await (await post(body)).json()) as { usage: Record<string, number> };
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.input_tokens).toBe(0);
    await fake.close();
    fake = await startFakeAnthropic({ strict: true, respond: echoResponder });
    expect((await post(body)).status).toBe(400);
  });

  it('lets an auto responder call a tool when the prompt asks for it', async () => {
    fake = await startFakeAnthropic({ respond: echoResponder });
    const res = (await (await post({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: '[[write /p/a.txt]]hi' }] })).json()) as {
      content: { type: string; input: unknown }[];
      stop_reason: string;
    };
    expect(res.stop_reason).toBe('tool_use');
    expect(res.content[0]).toMatchObject({ type: 'tool_use', input: { file_path: '/p/a.txt', content: 'hi' } });
  });
});
