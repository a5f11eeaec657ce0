import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrors, text, toolCalls, type ScriptedResponse, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
const deploy = '---\nname: Deploy day\ndescription: Deployments happen on Thursdays after the review\ntype: project\n---\nWe deploy on Thursdays.\n';
const role = '---\nname: Role\ndescription: The user is a designer who works on the checkout\ntype: user\n---\nDesigner.\n';

/** A chat whose selector answers `select()` and whose main agent answers from the queue (else "OK."). */
async function recallChat(select: () => ScriptedResponse) {
  f = await chatFixture({ fake: { respond: (r) => (isSelector(r) ? select() : text('OK.')) } });
  const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
  await fs.mkdir(memoryDir, { recursive: true });
  await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), deploy);
  await fs.writeFile(path.join(memoryDir, 'user_role.md'), role);
  return { f, memoryDir, sessionId: await f.newSession() };
}

const chipsOf = (fx: ChatFixture, sessionId: string) =>
  fx.events.flatMap((e) =>
    e.channel === 'chat:did-update' && (e.payload as { sessionId: string }).sessionId === sessionId
      ? (e.payload as { upserts: { kind: string; id: string; memories?: { title: string }[] }[] }).upserts.filter((i) => i.kind === 'recall')
      : [],
  );
const uniqueChips = (fx: ChatFixture, sessionId: string) => [...new Map(chipsOf(fx, sessionId).map((c) => [c.id, c])).values()];
const mainRequests = (fx: ChatFixture) => fx.fake.requests.filter((r) => !isSelector(r.body));
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('relevant-memory recall in the chat', () => {
  it('attaches a memory once a session, even when the selector picks it again on a later turn', async () => {
    const { f: fx, sessionId } = await recallChat(() => text('{"selected_memories": ["project_deploy.md"]}'));
    await fx.turn(sessionId, 'Which day do deployments happen?');
    await fx.turn(sessionId, 'And are deployments ever on Fridays?');
    const chips = uniqueChips(fx, sessionId);
    expect(chips.map((c) => c.memories!.map((m) => m.title))).toEqual([['Deploy day']]);
    const last = JSON.stringify(mainRequests(fx).at(-1)!.body.messages);
    expect(count(last, 'We deploy on Thursdays.')).toBe(1);
    expect(fx.fake.requests.filter((r) => isSelector(r.body))).toHaveLength(2);
    expectAllAccepted(fx.fake);
  });

  it('keeps one recall per memory folder across turns: the second turn re-reads no unchanged file', async () => {
    const { f: fx, memoryDir, sessionId } = await recallChat(() => text('{"selected_memories": ["project_deploy.md"]}'));
    await fx.turn(sessionId, 'Which day do deployments happen?');
    const recall = fx.services.vault().chat.engines.recallFor(await fs.realpath(memoryDir));
    expect(recall.lastScan).toEqual({ read: 2, reused: 0 });
    await fs.writeFile(path.join(memoryDir, 'user_role.md'), role.replace('Designer.', 'Designer and writer.'));
    await fx.turn(sessionId, 'And are deployments ever on Fridays?');
    expect(fx.services.vault().chat.engines.recallFor(await fs.realpath(memoryDir))).toBe(recall);
    expect(recall.lastScan).toEqual({ read: 1, reused: 1 });
  });

  it('still knows what it attached after the app restarts', async () => {
    const { f: fx, sessionId } = await recallChat(() => text('{"selected_memories": ["project_deploy.md"]}'));
    await fx.turn(sessionId, 'Which day do deployments happen?');
    await fx.restart();
    await fx.turn(sessionId, 'And are deployments ever on Fridays?');
    expect(uniqueChips(fx, sessionId)).toHaveLength(1);
    expect(count(JSON.stringify(mainRequests(fx).at(-1)!.body.messages), 'We deploy on Thursdays.')).toBe(1);
  });

  // docs/memory.md#recall step 9: compaction drops the old attachments, and with them their share of the budget.
  it('attaches a memory again after a compaction took the earlier attachment out of the context', async () => {
    const { f: fx, sessionId } = await recallChat(() => text('{"selected_memories": ["project_deploy.md"]}'));
    await fx.turn(sessionId, 'Which day do deployments happen?');
    const divider = fx.next('chat:did-update', (u) => u.sessionId === sessionId && u.upserts.some((i) => i.kind === 'compaction'));
    const idle = fx.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await fx.call('chat:compact', { project: fx.project, sessionId });
    await divider;
    await idle;
    expect(JSON.stringify(mainRequests(fx).at(-1)!.body.messages)).toContain('Your task is to write a detailed summary');
    await fx.turn(sessionId, 'Which day do deployments happen again?');
    expect(uniqueChips(fx, sessionId).map((c) => c.memories!.map((m) => m.title))).toEqual([['Deploy day'], ['Deploy day']]);
    expect(count(JSON.stringify(mainRequests(fx).at(-1)!.body.messages), 'We deploy on Thursdays.')).toBe(1);
    expectAllAccepted(fx.fake);
  });

  it('ranks locally when the selector call fails, and the chip still names the memory', async () => {
    const { f: fx, sessionId } = await recallChat(() => apiErrors.overloaded());
    await fx.turn(sessionId, 'Which day do deployments happen after the review?');
    expect(uniqueChips(fx, sessionId).map((c) => c.memories!.map((m) => m.title))).toEqual([['Deploy day']]);
    expect(JSON.stringify(mainRequests(fx).at(-1)!.body.messages)).toContain('We deploy on Thursdays.');
  });

  // docs/memory.md#auto-memory / docs/memory.md#auto-memory: "never a file already read".
  it('does not attach a memory the agent already read in this session', async () => {
    const { f: fx, memoryDir, sessionId } = await recallChat(() => text('{"selected_memories": ["project_deploy.md"]}'));
    fx.fake.enqueue(toolCalls([{ name: 'Read', input: { file_path: path.join(memoryDir, 'project_deploy.md') } }]), text('Thursdays.'));
    // A one-word question skips recall, so the agent's Read is the only way the file got in.
    await fx.turn(sessionId, 'Deployments?');
    expect(uniqueChips(fx, sessionId)).toEqual([]);
    await fx.turn(sessionId, 'Which day do deployments happen?');
    expect(uniqueChips(fx, sessionId)).toEqual([]);
  });
});

describe('how often recall used each memory (docs/memory.md#provenance-and-use)', () => {
  const deployPath = (fx: ChatFixture, memoryDir: string) => path.relative(fx.services.vault().root, path.join(memoryDir, 'project_deploy.md')).split(path.sep).join('/');

  it('counts each attachment by conversation, newest first, and leaves the memory file untouched', async () => {
    const { f: fx, memoryDir, sessionId: first } = await recallChat(() => text('{"selected_memories": ["project_deploy.md"]}'));
    await fx.turn(first, 'Which day do deployments happen?');
    const second = await fx.newSession();
    await fx.turn(second, 'Can we deploy on a Thursday?');

    const rel = deployPath(fx, memoryDir);
    const { since, files: usage } = await fx.call('memory:usage', {});
    expect(since).toBe(usage[rel]!.recent[1]!.at);
    expect(Object.keys(usage)).toEqual([rel]);
    expect(usage[rel]).toMatchObject({ count: 2, recent: [{ sessionId: second }, { sessionId: first }] });
    expect(usage[rel]!.lastUsed).toBe(usage[rel]!.recent[0]!.at);
    expect(await fs.readFile(path.join(memoryDir, 'project_deploy.md'), 'utf8')).toBe(deploy);
  });

  it('sets a damaged count file aside instead of overwriting it, and counts again from there', async () => {
    const { f: fx, memoryDir, sessionId } = await recallChat(() => text('{"selected_memories": ["project_deploy.md"]}'));
    const file = path.join(fx.services.vault().root, '.strata', 'memory-usage.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"files": [not json');
    await fx.turn(sessionId, 'Which day do deployments happen?');

    expect((await fx.call('memory:usage', {})).files[deployPath(fx, memoryDir)]).toMatchObject({ count: 1 });
    expect(await fs.readFile(`${file}.damaged`, 'utf8')).toBe('{"files": [not json');
  });
});
