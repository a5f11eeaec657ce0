import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { text, toolCalls, type WireRequest } from '../../../fakes/anthropic-server/index.js';
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
    // What is saved is still read: the index reached the model.
    expect(f.fake.requests.some((r) => JSON.stringify(r.body.messages).includes('- [Role](user_role.md) — designer'))).toBe(true);
    expectAllAccepted(f.fake);

    // Unpaused, the same request is written.
    await f.switches({ extraction: false, memoryPaused: false });
    await f.turn(sessionId, 'Remember that I always indent with tabs.');
    expect(await fs.readFile(path.join(memoryDir, 'feedback_tabs.md'), 'utf8')).toContain('Use tabs.');
  });
});
