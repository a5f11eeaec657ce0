import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { text, toolCalls, type ReceivedRequest, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { snapshotDir } from '../../../support/snapshot-dir.js';
import { chatFixture, expectAllAccepted, lastUserText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const isExtractor = (r: WireRequest) => lastUserText(r).includes('You are the memory extractor');
const tabs = '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n';

describe('pause memory for a project (docs/memory.md#pause-and-incognito)', () => {
  it('refuses the agent’s memory writes with a reason, runs no extraction, and leaves the memory folder as it was', async () => {
    let memoryDir = '';
    f = await chatFixture({
      fake: {
        respond: (r) => {
          if (lastUserText(r).includes('tool_result')) return text('I could not save that.');
          if (isExtractor(r)) return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'user_tabs.md'), content: tabs } }]);
          return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: tabs } }]);
        },
      },
    });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Role](user_role.md) — designer\n');
    await fs.writeFile(path.join(memoryDir, 'user_role.md'), '---\nname: Role\ndescription: designer\ntype: user\n---\nDesigner.\n');
    await f.switches({ extraction: true, memoryPaused: true });
    const before = await snapshotDir(memoryDir);

    const sessionId = await f.newSession();
    await f.turn(sessionId, 'Remember that I always indent with tabs.');
    await f.services.vault().chat.find(sessionId)!.idle();

    expect(await snapshotDir(memoryDir)).toEqual(before);
    expect(f.fake.requests.filter((r) => isExtractor(r.body))).toHaveLength(0);
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.messages!.at(-1))).toContain('the user paused memory for this project');
    // Told at the start of the turn: the system prompt says memory is paused, and no longer how to write it.
    const system = JSON.stringify(f.fake.requests.find((r) => JSON.stringify(r.body.system).includes('You are Strata'))!.body.system);
    expect(system).toContain('Memory is paused in this project');
    expect(system).not.toContain('You have a persistent, file-based memory');
    // What is saved is still read: the index reached the model.
    expect(f.fake.requests.some((r) => JSON.stringify(r.body.messages).includes('- [Role](user_role.md) — designer'))).toBe(true);
    expectAllAccepted(f.fake);

    // Unpaused, the same request is written.
    await f.switches({ extraction: false, memoryPaused: false });
    await f.turn(sessionId, 'Remember that I always indent with tabs.');
    expect(await fs.readFile(path.join(memoryDir, 'feedback_tabs.md'), 'utf8')).toContain('Use tabs.');
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.system)).toContain('You have a persistent, file-based memory');
  });

  it('offers no memory tool while paused, and offers it again once memory is on', async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { memoryWrites: 'memory-tool' } });
    await f.switches({ extraction: false, memoryPaused: true });
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Memory is paused, so I will not save that.'));
    await f.turn(sessionId, 'Remember that I live in Lisbon.');
    const names = (r: ReceivedRequest) => (r.body.tools ?? []).map((t) => String(t.name));
    expect(names(f.fake.requests.at(-1)!)).not.toContain('memory');
    expect(names(f.fake.requests.at(-1)!)).toContain('Write');
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.system)).toContain('Memory is paused in this project');

    await f.switches({ extraction: false, memoryPaused: false });
    f.fake.enqueue(text('Noted.'));
    await f.turn(sessionId, 'Now remember it.');
    expect(names(f.fake.requests.at(-1)!)).toContain('memory');
  });
});
