import { promises as fs } from 'node:fs';
import os from 'node:os';
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

const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
const isExtractor = (r: WireRequest) => lastUserText(r).includes('You are the memory extractor');

const incognitoFolders = async () => (await fs.readdir(os.tmpdir())).filter((n) => n.startsWith('strata-incognito-'));

describe('an incognito conversation (docs/memory.md#pause-and-incognito)', () => {
  it('reads no memory, writes none, leaves the vault byte-identical, and its transcript is gone when the app quits', async () => {
    let memoryDir = '';
    f = await chatFixture({
      fake: {
        respond: (r) => {
          if (isSelector(r)) return text('{"selected_memories": ["project_deploy.md"]}');
          if (lastUserText(r).includes('Your task is to write a detailed summary')) return text('<summary>The user asked about deploy days.</summary>');
          if (lastUserText(r).includes('tool_result')) return text('Noted for this chat only.');
          return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'feedback_tabs.md'), content: '---\nname: Tabs\ndescription: tabs\ntype: feedback\n---\nTabs.\n' } }]);
        },
      },
    });
    await f.switches({ extraction: true });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Deploy day](project_deploy.md) — Thursdays\n');
    await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), '---\nname: Deploy day\ndescription: Deployments happen on Thursdays\ntype: project\n---\nWe deploy on Thursdays.\n');
    const root = f.services.vault().root;
    const before = await snapshotDir(root);
    const foldersBefore = await incognitoFolders();

    const view = await f.call('chat:new-incognito-session', { project: f.project });
    expect(view.incognito).toBe(true);
    await f.turn(view.sessionId, 'Which day do deployments happen? Also remember I use tabs.');
    await f.services.vault().chat.find(view.sessionId)!.idle();
    // Compacting it keeps its state beside its transcript; its notes cannot be written.
    const idle = f.next('chat:did-update', (u) => u.sessionId === view.sessionId && u.phase === 'idle');
    await f.call('chat:compact', { project: f.project, sessionId: view.sessionId });
    await idle;
    expect(f.events.some((e) => e.channel === 'chat:did-update' && JSON.stringify(e.payload).includes('"kind":"compaction"'))).toBe(true);
    await expect(f.call('notes:write', { project: f.project, sessionId: view.sessionId, text: '# Notes\n', baseHash: null })).rejects.toThrow(/keeps no notes/);

    expect(await snapshotDir(root)).toEqual(before);
    const sent = JSON.stringify(f.fake.requests.map((r) => r.body));
    expect(sent).not.toContain('Deploy day');
    // Not even where memory lives: the first request (before the scripted Write) names no memory folder.
    expect(JSON.stringify(f.fake.requests[0]!.body)).not.toContain(memoryDir);
    expect(f.fake.requests.filter((r) => isSelector(r.body) || isExtractor(r.body))).toHaveLength(0);
    // The Write into the memory folder was refused: it is outside what this conversation may touch.
    await expect(fs.stat(path.join(memoryDir, 'feedback_tabs.md'))).rejects.toThrow();
    expectAllAccepted(f.fake);

    // The conversation reopens while the app runs, marked, and is not in the vault's list.
    const reopened = await f.call('chat:open-session', { project: f.project, sessionId: view.sessionId });
    expect(reopened).toMatchObject({ incognito: true });
    expect(reopened.items.some((i) => i.kind === 'user')).toBe(true);
    expect((await f.call('chat:list-sessions', { project: f.project })).map((s) => s.sessionId)).not.toContain(view.sessionId);
    const made = (await incognitoFolders()).filter((n) => !foldersBefore.includes(n));
    expect(made).toHaveLength(1);

    await f.restart();
    expect((await incognitoFolders()).filter((n) => !foldersBefore.includes(n))).toEqual([]);
    await expect(f.call('chat:open-session', { project: f.project, sessionId: view.sessionId })).rejects.toThrow(/no longer exists/);
    // Quitting saves the vault's search cache (.strata/cache), as it does after any session: it holds nothing of this conversation.
    const after = await snapshotDir(root);
    const cache = Object.keys(after).filter((p) => p.startsWith('.strata/cache/'));
    for (const p of cache) expect(Buffer.from(after[p]!, 'base64').toString('latin1')).not.toContain('remember I use tabs');
    for (const p of cache) delete after[p];
    expect(after).toEqual(before);
  });

  it('deleting it ends it for good, without putting it in the vault’s trash', async () => {
    f = await chatFixture({ fake: { respond: () => text('OK.') } });
    const root = f.services.vault().root;
    const view = await f.call('chat:new-incognito-session', { project: f.project });
    await f.turn(view.sessionId, 'A question for this chat only');
    const before = await snapshotDir(root);
    const { undoToken } = await f.call('chat:delete-session', { project: f.project, sessionId: view.sessionId });
    await expect(f.call('chat:undo-delete', { project: f.project, undoToken })).rejects.toThrow(/gone for good/);
    expect(await snapshotDir(root)).toEqual(before);
  });
});
