import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedResponse, WireRequest } from '../../../fakes/anthropic-server/index.js';
import { text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, lastUserText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** Answers the background forks the way a model would: one tool call, then a short reply. */
function forkResponder(act: (request: WireRequest) => ScriptedResponse | null) {
  return (request: WireRequest): ScriptedResponse => {
    if (lastUserText(request).includes('tool_result')) return text('Done.');
    return act(request) ?? text('Nothing to do.');
  };
}

describe('the memory engines on the chat loop', () => {
  it('updates the session notes in the background once the context is big enough, and tells the notes panel', async () => {
    let notesPath = '';
    f = await chatFixture({
      fake: {
        respond: forkResponder((request) =>
          lastUserText(request).includes(notesPath)
            ? toolCalls([{ name: 'Edit', input: { file_path: notesPath, old_string: '# Worklog\n', new_string: '# Worklog\n- looked at the launch date\n' } }])
            : null,
        ),
      },
    });
    await f.call('settings:set', { patch: { memory: { sessionMemory: { minTokensToInit: 50, minTokensBetweenUpdates: 50, toolCallsBetweenUpdates: 1, maxSectionTokens: 2000, maxTotalTokens: 12000 } } } });
    await f.restart();
    const sessionId = await f.newSession();
    notesPath = path.join(f.services.vault().root, (await f.call('notes:read', { project: f.project, sessionId })).path);
    f.fake.enqueue(text('The launch is on Friday. '.repeat(20)));
    const updated = f.next('notes:did-change', (n) => n.sessionId === sessionId && n.text.includes('looked at the launch date'));
    await f.turn(sessionId, 'When is the launch? '.repeat(20));
    const notes = await updated;
    expect(notes.exists).toBe(true);
    expect(await fs.readFile(notesPath, 'utf8')).toContain('- looked at the launch date');
    // The fork sent the parent's tools unchanged: they are part of the cache key.
    const forkRequest = f.fake.requests.find((r) => lastUserText(r.body).includes(notesPath))!;
    expect(forkRequest.body.tools).toEqual(f.fake.requests[0]!.body.tools);
    expectAllAccepted(f.fake);
  });

  it('runs the extractor at the end of a turn and shows what it saved as a card with "don’t remember"', async () => {
    let memoryDir = '';
    f = await chatFixture({
      fake: {
        respond: forkResponder((request) =>
          lastUserText(request).includes('You are the memory extractor')
            ? toolCalls([
                {
                  name: 'Write',
                  input: { file_path: path.join(memoryDir, 'user_tabs.md'), content: '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' },
                },
              ])
            : null,
        ),
      },
    });
    await f.switches({ extraction: true });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Sure, tabs it is.'));
    const card = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'memory' && i.by === 'extractor'));
    await f.turn(sessionId, 'I always indent with tabs.');
    const item = (await card).upserts.find((i) => i.kind === 'memory')!;
    expect(item).toMatchObject({ action: 'saved', title: 'Prefers tabs', type: 'feedback', by: 'extractor' });
    expect(await fs.readFile(path.join(memoryDir, 'user_tabs.md'), 'utf8')).toContain('Use tabs.');
    // The fork leads with the parent's context reminder, as the parent does (same prefix, same context).
    const headText = (body: { messages?: { content: unknown }[] }) => (body.messages![0]!.content as { text?: string }[])[0]!.text;
    const fork = f.fake.requests.find((r) => lastUserText(r.body).includes('You are the memory extractor'))!;
    expect(headText(fork.body)).toContain("Today's date is");
    expect(headText(fork.body)).toBe(headText(f.fake.requests[0]!.body));

    const { saved } = await f.call('chat:dont-remember', { project: f.project, sessionId, itemId: item.id });
    await expect(fs.stat(path.join(memoryDir, 'user_tabs.md'))).rejects.toThrow();
    const feedback = await fs.readFile(path.join(f.services.vault().root, saved), 'utf8');
    expect(feedback).toContain('type: feedback');
    expect(feedback).toContain('Prefers tabs');
    expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).toContain(path.basename(saved));
  });

  it('applies "extract every N turns" changed in settings from the next turn, without a restart', async () => {
    f = await chatFixture({ fake: { respond: forkResponder(() => null) } });
    const fx = f;
    await fx.switches({ extraction: true });
    const sessionId = await fx.newSession();
    const extractions = () => fx.fake.requests.filter((r) => lastUserText(r.body).includes('You are the memory extractor')).length;
    const turn = async (n: number) => {
      await fx.turn(sessionId, `Question ${n}: what is the launch date?`);
      await fx.services.vault().chat.find(sessionId)!.idle();
    };
    await turn(1);
    expect(extractions()).toBe(1);
    await fx.call('settings:set', { patch: { memory: { autoMemory: { extractEveryTurns: 3 } } } });
    await turn(2);
    await turn(3);
    expect(extractions()).toBe(1);
    await turn(4);
    expect(extractions()).toBe(2);
    expectAllAccepted(fx.fake);
  });

  it('holds the extractor’s changes in the review inbox until the user accepts, edits or rejects them', async () => {
    let memoryDir = '';
    let turn = 0;
    f = await chatFixture({
      fake: {
        respond: forkResponder((request) => {
          if (!lastUserText(request).includes('You are the memory extractor')) return null;
          turn += 1;
          const file = path.join(memoryDir, turn === 1 ? 'feedback_tabs.md' : 'user_role.md');
          const body = turn === 1 ? '---\nname: Prefers tabs\ndescription: Indent with tabs\ntype: feedback\n---\nUse tabs.\n' : '---\nname: Role\ndescription: Designer\ntype: user\n---\nDesigner.\n';
          return toolCalls([
            { name: 'Write', input: { file_path: file, content: body } },
            { name: 'Write', input: { file_path: path.join(memoryDir, 'MEMORY.md'), content: '- [x](x.md) — x\n' } },
          ]);
        }),
      },
    });
    await f.switches({ extraction: true, reviewMode: true });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const sessionId = await f.newSession();
    const card = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'memory' && i.proposalId !== undefined));
    const inboxEvent = f.next('memory:did-change-proposals', (e) => e.proposals.length === 1);
    f.fake.enqueue(text('Tabs, noted.'));
    await f.turn(sessionId, 'I indent with tabs.');
    const proposed = (await card).upserts.find((i) => i.kind === 'memory')!;
    expect(proposed).toMatchObject({ title: 'Prefers tabs', by: 'extractor', undoToken: null });
    expect((await inboxEvent).project).toBe(f.project);
    await f.services.vault().chat.find(sessionId)!.idle();
    // Nothing landed: neither the memory nor the index line.
    await expect(fs.stat(path.join(memoryDir, 'feedback_tabs.md'))).rejects.toThrow();
    await expect(fs.stat(path.join(memoryDir, 'MEMORY.md'))).rejects.toThrow();
    // The model was told the change is held, not refused.
    const fork = f.fake.requests.filter((r) => lastUserText(r.body).includes('tool_result')).at(-1)!;
    expect(JSON.stringify(fork.body.messages!.at(-1))).toContain('Saved for the user to review');

    let inbox = await f.call('memory:list-proposals', { project: f.project });
    expect(inbox.map((p) => p.title)).toEqual(['Prefers tabs']);
    inbox = await f.call('memory:resolve-proposal', { project: f.project, id: inbox[0]!.id, decision: 'accept', text: inbox[0]!.text!.replace('Use tabs.', 'Use tabs, width 4.') });
    expect(inbox).toEqual([]);
    expect(await fs.readFile(path.join(memoryDir, 'feedback_tabs.md'), 'utf8')).toContain('Use tabs, width 4.');
    // An accepted memory names the conversation that proposed it, like one written at once.
    expect(await fs.readFile(path.join(memoryDir, 'feedback_tabs.md'), 'utf8')).toMatch(new RegExp(`^originSessionId: ${sessionId}$`, 'm'));
    expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).toBe('- [Prefers tabs](feedback_tabs.md) — Indent with tabs\n');

    f.fake.enqueue(text('A designer, got it.'));
    await f.turn(sessionId, 'I am a designer.');
    await f.services.vault().chat.find(sessionId)!.idle();
    inbox = await f.call('memory:list-proposals', { project: f.project });
    expect(inbox.map((p) => p.title)).toEqual(['Role']);
    expect(await f.call('memory:resolve-proposal', { project: f.project, id: inbox[0]!.id, decision: 'reject' })).toEqual([]);
    await expect(fs.stat(path.join(memoryDir, 'user_role.md'))).rejects.toThrow();
  });

  it('recalls the memory the selector picks into the question and shows it as a chip', async () => {
    const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
    f = await chatFixture({ fake: { respond: (r) => (isSelector(r) ? text('{"selected_memories": ["project_deploy.md"]}') : text('On Thursday.')) } });
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), '---\nname: Deploy day\ndescription: Deployments happen on Thursdays after the review\ntype: project\n---\nWe deploy on Thursdays.\n');
    await fs.writeFile(path.join(memoryDir, 'user_role.md'), '---\nname: Role\ndescription: The user is a designer\ntype: user\n---\nDesigner.\n');
    const sessionId = await f.newSession();
    const chip = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'recall'));
    await f.turn(sessionId, 'Which day do deployments happen?');
    const recall = (await chip).upserts.find((i) => i.kind === 'recall')!;
    expect(recall.kind === 'recall' && recall.memories.map((m) => m.title)).toEqual(['Deploy day']);
    expect(f.fake.requests.some((r) => isSelector(r.body))).toBe(true);
    const main = f.fake.requests.find((r) => JSON.stringify(r.body.messages).includes('Which day do deployments happen?') && r.body.tools?.length)!;
    expect(JSON.stringify(main.body.messages)).toContain('We deploy on Thursdays.');
    expect(JSON.stringify(main.body.messages)).toContain('verify before relying on it');
  });

  it('lets the extractor update a memory recall showed whole without reading it first, and shows the update as a card', async () => {
    const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
    let memoryDir = '';
    const updated = '---\nname: Deploy day\ndescription: Deployments happen on Fridays now\ntype: project\n---\nWe deploy on Fridays since December.\n';
    f = await chatFixture({
      fake: {
        respond: (r) => {
          if (isSelector(r)) return text('{"selected_memories": ["project_deploy.md"]}');
          if (!lastUserText(r).includes('You are the memory extractor')) return text('Noted: Fridays from now on.');
          return forkResponder(() => toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'project_deploy.md'), content: updated } }]))(r);
        },
      },
    });
    await f.switches({ extraction: true });
    memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'project_deploy.md'), '---\nname: Deploy day\ndescription: Deployments happen on Thursdays\ntype: project\n---\nWe deploy on Thursdays.\n');
    const sessionId = await f.newSession();
    const card = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'memory' && i.by === 'extractor'));
    await f.turn(sessionId, 'We moved deployments: which day do they happen now? Fridays.');
    const item = (await card).upserts.find((i) => i.kind === 'memory')!;
    expect(item).toMatchObject({ title: 'Deploy day', by: 'extractor' });
    expect(await fs.readFile(path.join(memoryDir, 'project_deploy.md'), 'utf8')).toBe(updated);
    const results = f.fake.requests.flatMap((r) => JSON.stringify(r.body.messages)).join('\n');
    expect(results).not.toContain('has not been read yet');
  });

  it('compacts on request from the notes without a model call, and the next turn is accepted', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    for (const question of ['First question about the schema', 'Second question about the API', 'Third question about tests']) {
      f.fake.enqueue(text(`An answer to: ${question}. `.repeat(10)));
      await f.turn(sessionId, question);
    }
    const notes = await f.call('notes:read', { project: f.project, sessionId });
    await f.call('notes:write', { project: f.project, sessionId, text: `${notes.text || '# Session Title\nSchema work\n'}\n# Current State\nDiscussing the schema, the API and tests.\n`, baseHash: notes.hash });
    const calls = f.fake.requests.length;
    const divider = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'compaction'));
    const idle = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
    await f.call('chat:compact', { project: f.project, sessionId });
    const item = (await divider).upserts.find((i) => i.kind === 'compaction')!;
    await idle;
    expect(item).toMatchObject({ kind: 'compaction', path: 'session-notes', reason: null });
    expect(item.kind === 'compaction' && item.keptMessages).toBeGreaterThan(0);
    expect(item.kind === 'compaction' && item.transcriptPath).toMatch(/\.jsonl$/);
    expect(f.fake.requests.length).toBe(calls);

    f.fake.enqueue(text('Continuing.'));
    await f.turn(sessionId, 'Go on');
    const sent = JSON.stringify(f.fake.requests.at(-1)!.body.messages);
    expect(sent).toContain('Discussing the schema, the API and tests.');
    expectAllAccepted(f.fake);
    // Reopened, the conversation shows what it showed live: every question once (those kept word for
    // word too), the divider after them, and the turn after the compaction.
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    const questions = view.items.flatMap((i) => (i.kind === 'user' ? [i.text] : []));
    expect(questions).toEqual(['First question about the schema', 'Second question about the API', 'Third question about tests', 'Go on']);
    const kinds = view.items.map((i) => i.kind);
    expect(kinds.filter((k) => k === 'compaction')).toHaveLength(1);
    expect(kinds.indexOf('compaction')).toBeGreaterThan(view.items.findIndex((i) => i.kind === 'user' && i.text === 'Third question about tests'));
    expect(view.items.findIndex((i) => i.kind === 'user' && i.text === 'Go on')).toBeGreaterThan(kinds.indexOf('compaction'));
  });

  /** An index of `lines` entries in `dir` (`memoryDir` or `teamMemoryDir`), then the first turn's notice that starts with `prefix`. */
  async function startNotice(dir: 'memoryDir' | 'teamMemoryDir', lines: number, prefix: string): Promise<string> {
    f = await chatFixture();
    const folder = (await f.services.vault().sessions.paths(f.project))[dir];
    await fs.mkdir(folder, { recursive: true });
    await fs.writeFile(path.join(folder, 'MEMORY.md'), Array.from({ length: lines }, (_, i) => `- [M${i}](m${i}.md) — hook ${i}`).join('\n'));
    const sessionId = await f.newSession();
    const starts = (i: { kind: string; text?: string }) => i.kind === 'notice' && i.text!.startsWith(prefix);
    const notice = f.next('chat:did-update', (u) => u.upserts.some(starts));
    f.fake.enqueue(text('Hello.'));
    await f.turn(sessionId, 'Hello');
    return ((await notice).upserts.find(starts) as { text: string }).text;
  }

  it('warns at the start of a conversation when MEMORY.md nears its cap, naming what to merge', async () => {
    expect(await startNotice('memoryDir', 175, 'MEMORY.md')).toContain('MEMORY.md is 88% full (175/200 lines');
  });

  it('tells the user when the team MEMORY.md is cut at load, naming what was cut', async () => {
    const notice = await startNotice('teamMemoryDir', 210, 'The team MEMORY.md');
    expect(notice).toContain('The team MEMORY.md is over its limit, so lines 201–210 (from "M200" on) are no longer loaded');
    // The model is told as well, in the reminder.
    expect(JSON.stringify(f!.fake.requests.at(-1)!.body.messages)).toContain('lines 201–210 were cut');
  });

  it('compacts with instructions through the summarizer fork', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('We chose PostgreSQL.'));
    await f.turn(sessionId, 'Which database?');
    f.fake.enqueue(text('<summary>The user chose PostgreSQL for the schema.</summary>'));
    const divider = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'compaction'));
    await f.call('chat:compact', { project: f.project, sessionId, instructions: 'Keep the database decision' });
    const item = (await divider).upserts.find((i) => i.kind === 'compaction')!;
    expect(item).toMatchObject({ path: 'summarizer', reason: 'instructions' });
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.messages)).toContain('Keep the database decision');
    expectAllAccepted(f.fake);
  });
});
