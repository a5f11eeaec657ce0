import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { text, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
const deploy = '---\nname: Deploy day\ndescription: Deployments happen on Thursdays after the review\ntype: project\n---\nWe deploy on Thursdays.\n';
const role = '---\nname: Role\ndescription: The user is a designer who works on the checkout\ntype: user\n---\nDesigner.\n';

async function usageChat() {
  f = await chatFixture({ fake: { respond: (r) => (isSelector(r) ? text('{"selected_memories": ["project_deploy.md"]}') : text('OK.')) } });
  const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
  await fs.mkdir(memoryDir, { recursive: true });
  await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), deploy);
  await fs.writeFile(path.join(memoryDir, 'user_role.md'), role);
  const rel = path.relative(f.services.vault().root, path.join(memoryDir, 'project_deploy.md')).split(path.sep).join('/');
  return { f, memoryDir, rel };
}

describe('how often recall used each memory', () => {
  it('counts each attachment by conversation, newest first, and leaves the memory file untouched', async () => {
    const { f: fx, memoryDir, rel } = await usageChat();
    const first = await fx.newSession();
    await fx.turn(first, 'Which day do deployments happen?');
    const second = await fx.newSession();
    await fx.turn(second, 'Can we deploy on a Thursday?');

    const usage = await fx.call('memory:usage', {});
    expect(Object.keys(usage)).toEqual([rel]);
    expect(usage[rel]).toMatchObject({ count: 2, recent: [{ sessionId: second }, { sessionId: first }] });
    expect(usage[rel]!.lastUsed).toBe(usage[rel]!.recent[0]!.at);
    expect(await fs.readFile(path.join(memoryDir, 'project_deploy.md'), 'utf8')).toBe(deploy);
  });

  it('sets a damaged count file aside instead of overwriting it, and counts again from there', async () => {
    const { f: fx, rel } = await usageChat();
    const file = path.join(fx.services.vault().root, '.strata', 'memory-usage.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"files": [not json');
    const session = await fx.newSession();
    await fx.turn(session, 'Which day do deployments happen?');

    expect((await fx.call('memory:usage', {}))[rel]).toMatchObject({ count: 1 });
    expect(await fs.readFile(`${file}.damaged`, 'utf8')).toBe('{"files": [not json');
  });
});
