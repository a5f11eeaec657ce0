import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMemoryFile } from '../../../../common/memory-file/index.js';
import { text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, lastUserText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const tabs = '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n';
const index = '- [Deploy day](project_deploy.md) — Thursdays\n- [Prefers tabs](feedback_tabs.md) — tabs\n';

/** "Forget that I prefer tabs": the agent reads the index, deletes the memory and removes its line. */
async function forget() {
  f = await chatFixture();
  const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
  await fs.mkdir(memoryDir, { recursive: true });
  await fs.writeFile(path.join(memoryDir, 'feedback_tabs.md'), tabs);
  await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), index);
  const sessionId = await f.newSession();
  f.fake.enqueue(
    toolCalls([{ name: 'Read', input: { file_path: path.join(memoryDir, 'MEMORY.md') } }]),
    toolCalls([
      { name: 'Delete', input: { file_path: path.join(memoryDir, 'feedback_tabs.md') } },
      { name: 'Edit', input: { file_path: path.join(memoryDir, 'MEMORY.md'), old_string: '- [Prefers tabs](feedback_tabs.md) — tabs\n', new_string: '' } },
    ]),
    text('Forgotten.'),
  );
  const card = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'memory' && i.action === 'deleted'));
  // One word: recall stays out of it, so the queue answers only the main agent.
  await f.turn(sessionId, 'Forget-tabs');
  const item = (await card).upserts.find((i) => i.kind === 'memory')!;
  expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).not.toContain('feedback_tabs.md');
  expect(item).toMatchObject({ action: 'deleted', title: 'Prefers tabs', by: 'agent' });
  expect(await f.call('chat:undo-memory', { undoToken: item.kind === 'memory' ? item.undoToken! : '' })).toEqual({ undone: true });
  return { memoryDir };
}

describe('Undo of a memory the agent forgot', () => {
  it('brings the file back as it was', async () => {
    const { memoryDir } = await forget();
    expect(await fs.readFile(path.join(memoryDir, 'feedback_tabs.md'), 'utf8')).toBe(tabs);
  });

  // docs/memory.md#auto-memory / docs/memory.md#auto-memory (the store edits MEMORY.md for Undo): the line the agent removed with it
  // comes back, so the memory is listed again.
  it('brings its MEMORY.md line back too', async () => {
    const { memoryDir } = await forget();
    expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('(feedback_tabs.md)');
  });
});

// docs/memory.md#auto-memory: the memory folder is created when the agent starts (the system prompt says it exists).
describe('the memory folder of a fresh project', () => {
  it('exists once the agent started, so the first "remember" lands even in a vault reached through a symlink', async () => {
    let memoryDir = '';
    f = await chatFixture({
      fake: {
        respond: (r) => {
          const last = lastUserText(r);
          if (last.includes('tool_result')) return text('Saved.');
          if (last.includes('Remember-tabs')) return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: tabs } }]);
          return text('Hello.');
        },
      },
    });
    const real = await fs.realpath(await fs.mkdtemp(path.join(path.dirname(f.appData), 'strata-real-vault-')));
    const link = path.join(path.dirname(real), `${path.basename(real)}-link`);
    await fs.symlink(real, link);
    await f.call('vault:set-root', { root: link });
    // Settings belong to the vault: the new one is pointed at the fake API too.
    await f.call('settings:set', { patch: { baseUrl: f.fake.url, model: 'claude-test' } });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    expect(memoryDir.startsWith(link + path.sep)).toBe(true);
    const sessionId = await f.newSession();
    await f.turn(sessionId, 'Hello');
    expect((await fs.stat(memoryDir)).isDirectory()).toBe(true);
    const card = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'memory' && i.action === 'saved'));
    await f.turn(sessionId, 'Remember-tabs');
    expect((await card).upserts.find((i) => i.kind === 'memory')).toMatchObject({ title: 'Prefers tabs', by: 'agent' });
    // The agent's text, plus the conversation that wrote it (originSessionId, as the newest Claude Code records).
    const written = await fs.readFile(path.join(memoryDir, 'feedback_tabs.md'), 'utf8');
    expect(written).toBe(tabs.replace(/\n---\n/, `\noriginSessionId: ${sessionId}\n---\n`));
    expect(parseMemoryFile(written).originSessionId).toBe(sessionId);
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.messages)).not.toContain('outside the project folder');
  });
});
