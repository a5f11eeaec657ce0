import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { text } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const INDEX = '- [Deploy day](project_deploy.md) — we deploy on Thursdays';

describe('auto memory in the model’s context', () => {
  /** A turn, a compaction from the session notes, and the turn after it: what that last request sent. */
  async function compactedTurn(): Promise<string> {
    f = await chatFixture();
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), `${INDEX}\n`);
    await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), '---\nname: Deploy day\ndescription: Thursdays\ntype: project\n---\nThursdays.\n');
    const sessionId = await f.newSession();
    // One-word prompts: recall stays out, so only the index can bring the memory in.
    f.fake.enqueue(text('Hello.'));
    await f.turn(sessionId, 'Hi');
    const first = f.fake.requests.at(-1)!.body;
    const system = JSON.stringify(first.system);
    expect(system).toContain(memoryDir);
    for (const part of ['## Kinds of memory', '## What not to save', '## How to save']) expect(system).toContain(part);
    expect(JSON.stringify(first.messages)).toContain(INDEX);

    const notes = await f.call('notes:read', { project: f.project, sessionId });
    await f.call('notes:write', { project: f.project, sessionId, text: `${notes.text || '# Session Title\nGreeting\n'}\n# Current State\nSaid hello.\n`, baseHash: notes.hash });
    const idle = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:compact', { project: f.project, sessionId });
    await idle;
    f.fake.enqueue(text('Still here.'));
    await f.turn(sessionId, 'Continue');
    const after = f.fake.requests.at(-1)!.body;
    expect(JSON.stringify(after.system)).toBe(system);
    const sent = JSON.stringify(after.messages);
    expect(sent).toContain('Said hello.');
    // The rebuilt reminder, index included, leads the first user message, before the summary (as Claude Code's does).
    const head = JSON.stringify(after.messages![0]);
    expect(head.indexOf(INDEX)).toBeGreaterThan(-1);
    expect(head.indexOf(INDEX)).toBeLessThan(head.indexOf('Said hello.'));
    expectAllAccepted(f.fake);
    return sent;
  }

  it('sends the memory section in the system prompt and the MEMORY.md index in the reminder, again after a compaction', async () => {
    await compactedTurn();
  });

  // After a session-notes compaction the kept tail may still hold the first reminder: it is not sent twice.
  it('holds the index once after a compaction that kept the first reminder', async () => {
    expect((await compactedTurn()).split(INDEX).length - 1).toBe(1);
  });
});
