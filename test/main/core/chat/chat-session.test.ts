import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrors, text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, lastRequestText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

describe('a conversation through the IPC handlers, the real SDK and the strict fake API', () => {
  it('streams an answer, runs tools in a loop and keeps a transcript Claude Code can read', async () => {
    f = await chatFixture();
    await fs.writeFile(path.join(f.project, 'notes.txt'), 'the launch is on Friday\n');
    await fs.writeFile(path.join(f.project, 'CLAUDE.md'), 'Always answer in English.\n');
    const sessionId = await f.newSession();
    f.fake.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: path.join(f.project, 'notes.txt') } }, { name: 'Glob', input: { pattern: '*.txt' } }]),
      text('The launch is on **Friday**.', { chunkChars: 4 }),
    );
    const streamed: string[] = [];
    f.services.events.subscribe((channel, payload) => {
      if (channel === 'chat:did-stream') streamed.push((payload as { text: string }).text);
    });
    const done = await f.turn(sessionId, 'When is the launch?');
    expect(done.phase).toBe('idle');
    expect(streamed.join('')).toBe('The launch is on **Friday**.');
    expect(streamed.length).toBeGreaterThan(3);

    // The first request carries the context reminder (CLAUDE.md, today's date) before the prompt.
    const first = JSON.stringify(f.fake.requests[0]!.body.messages);
    expect(first).toContain('Always answer in English.');
    expect(first).toContain('When is the launch?');
    // The tool results went back in one user message, both tools answered.
    const second = f.fake.requests[1]!.body.messages!.at(-1)!;
    expect(JSON.stringify(second)).toContain('the launch is on Friday');
    expect(JSON.stringify(second)).toContain('notes.txt');
    expectAllAccepted(f.fake);

    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.title).toBe('When is the launch?');
    expect(view.items.map((i) => i.kind)).toEqual(['user', 'tool', 'tool', 'assistant']);
    expect(view.items.filter((i) => i.kind === 'tool').every((i) => i.kind === 'tool' && i.status === 'done')).toBe(true);
    const records = await f.transcript(sessionId);
    for (const r of records.filter((r) => r.type === 'user' || r.type === 'assistant')) {
      expect(r).toMatchObject({ sessionId, cwd: f.project, uuid: expect.any(String), timestamp: expect.any(String) });
    }
    const sessions = await f.call('chat:list-sessions', { project: f.project });
    expect(sessions.map((s) => s.sessionId)).toEqual([sessionId]);
  });

  it('resumes after a restart: the history goes back to the model and the view is rebuilt', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Noted: your name is Ada.'));
    await f.turn(sessionId, 'My name is Ada.');
    await f.restart();
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind))).toEqual(['My name is Ada.', 'Noted: your name is Ada.']);
    f.fake.enqueue(text('Your name is Ada.'));
    await f.turn(sessionId, 'What is my name?');
    const sent = f.fake.requests.at(-1)!.body.messages!;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastRequestText(f.fake)).toContain('My name is Ada.');
    expectAllAccepted(f.fake);
  });

  it('attaches a subfolder CLAUDE.md and a matching paths: rule after the Read of a file under it, once', async () => {
    const c = await chatFixture();
    f = c;
    await fs.mkdir(path.join(c.project, 'src'), { recursive: true });
    await fs.mkdir(path.join(c.project, '.claude', 'rules'), { recursive: true });
    await fs.writeFile(path.join(f.project, 'src', 'CLAUDE.md'), 'Source folder rule.\n');
    await fs.writeFile(path.join(f.project, 'src', 'app.ts'), 'export const x = 1;\n');
    await fs.writeFile(path.join(f.project, '.claude', 'rules', 'ts.md'), '---\npaths: src/**/*.ts\n---\nTypeScript rule.\n');
    const sessionId = await f.newSession();
    const read = () => toolCalls([{ name: 'Read', input: { file_path: path.join(c.project, 'src', 'app.ts') } }]);
    f.fake.enqueue(read(), read(), text('Read it.'));
    await f.turn(sessionId, 'Look at the app');
    // Neither is sent at the start; both follow the first result, in the same user message.
    expect(JSON.stringify(f.fake.requests[0]!.body.messages)).not.toContain('TypeScript rule.');
    const afterFirst = JSON.stringify(f.fake.requests[1]!.body.messages!.at(-1));
    expect(afterFirst).toContain('export const x = 1;');
    expect(afterFirst.indexOf('Source folder rule.')).toBeGreaterThan(afterFirst.indexOf('export const x = 1;'));
    expect(afterFirst.indexOf('TypeScript rule.')).toBeGreaterThan(afterFirst.indexOf('Source folder rule.'));
    const all = JSON.stringify(f.fake.requests[2]!.body.messages);
    expect(all.split('TypeScript rule.').length - 1).toBe(1);
    expectAllAccepted(f.fake);
  });

  it('rebuilds the context when a session is resumed: the edited CLAUDE.md and the notes so far reach the model, once', async () => {
    f = await chatFixture();
    await fs.writeFile(path.join(f.project, 'CLAUDE.md'), 'Answer in English.\n');
    const sessionId = await f.newSession();
    f.fake.enqueue(text('Hello.'));
    await f.turn(sessionId, 'First question');
    expect(lastRequestText(f.fake)).toContain('Answer in English.');

    // Overnight: the instructions change and the notes hold what the session did.
    await f.restart();
    await fs.writeFile(path.join(f.project, 'CLAUDE.md'), 'Answer in French.\n');
    const notes = await f.call('notes:read', { project: f.project, sessionId });
    await f.call('notes:write', { project: f.project, sessionId, text: '# Current State\nPlanning the Friday launch.\n', baseHash: notes.hash });
    f.fake.enqueue(text('Bonjour.'));
    await f.turn(sessionId, 'Second question');
    const resumed = f.fake.requests.at(-1)!.body.messages!;
    const head = JSON.stringify(resumed[0]);
    // As Claude Code 2.1.88 does on resume, the rebuilt reminder leads the first user message and the
    // one it replaces is not sent (docs/claude-code-parity.md).
    expect(head).toContain('Answer in French.');
    expect(head).toContain('Planning the Friday launch.');
    expect(head).toContain("Today's date is");
    expect(head).toContain('First question');
    expect(JSON.stringify(resumed.at(-1))).toContain('Second question');
    expect(JSON.stringify(resumed)).not.toContain('Answer in English.');
    expectAllAccepted(f.fake);

    // Later turns of the same run, and a restart with nothing changed, add no further reminder.
    f.fake.enqueue(text('Encore.'));
    await f.turn(sessionId, 'Third question');
    await f.restart();
    f.fake.enqueue(text('Toujours.'));
    await f.turn(sessionId, 'Fourth question');
    const all = JSON.stringify(f.fake.requests.at(-1)!.body.messages);
    expect(all.split('Answer in French.').length - 1).toBe(1);
    expect(all.split('Planning the Friday launch.').length - 1).toBe(1);
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.items.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text)).toEqual(['First question', 'Second question', 'Third question', 'Fourth question']);
    expectAllAccepted(f.fake);
  });

  it('asks before a write outside the memory folders: allow once writes, deny tells the model, always is remembered', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    const target = path.join(f.project, 'plan.md');

    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: '# Plan\n' } }]), text('Written.'));
    let asked = f.next('chat:did-request-permission');
    let settled = f.turn(sessionId, 'Write a plan');
    let request = await asked;
    expect(request).toMatchObject({ sessionId, tool: 'Write', path: target });
    expect(request.diff).toContain('+# Plan');
    await f.call('chat:answer-permission', { requestId: request.requestId, decision: 'allow_once' });
    await settled;
    expect(await fs.readFile(target, 'utf8')).toBe('# Plan\n');

    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: 'overwritten' } }]), text('Understood, I will not.'));
    asked = f.next('chat:did-request-permission');
    settled = f.turn(sessionId, 'Overwrite it');
    request = await asked;
    // Writing over a file needs a Read first: the model read it when it wrote it, so it may.
    await f.call('chat:answer-permission', { requestId: request.requestId, decision: 'deny' });
    await settled;
    expect(await fs.readFile(target, 'utf8')).toBe('# Plan\n');
    expect(lastRequestText(f.fake)).toContain('The user declined this Write');
    const afterDeny = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(afterDeny.items.filter((i) => i.kind === 'tool').map((i) => i.kind === 'tool' && i.status)).toEqual(['done', 'denied']);

    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: 'v2' } }]), text('Done.'));
    asked = f.next('chat:did-request-permission');
    settled = f.turn(sessionId, 'Now write v2');
    await f.call('chat:answer-permission', { requestId: (await asked).requestId, decision: 'allow_always' });
    await settled;
    expect(f.services.vault().settings.get().projects[f.project]?.alwaysAllowWrites).toBe(true);

    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: target, content: 'v3' } }]), text('Done.'));
    const permissionsBefore = f.events.filter((e) => e.channel === 'chat:did-request-permission').length;
    await f.turn(sessionId, 'And v3');
    expect(await fs.readFile(target, 'utf8')).toBe('v3');
    expect(f.events.filter((e) => e.channel === 'chat:did-request-permission').length).toBe(permissionsBefore);
    expectAllAccepted(f.fake);
  });

  it('shows a memory the agent saves as a card whose Undo removes the file and its index line', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const file = path.join(memoryDir, 'user_name.md');
    const memory = '---\nname: Their name\ndescription: The user is called Ada\ntype: user\n---\nThe user is called Ada.\n';
    f.fake.enqueue(
      toolCalls([
        { name: 'Write', input: { file_path: file, content: memory } },
        { name: 'Write', input: { file_path: path.join(memoryDir, 'MEMORY.md'), content: '- [Their name](user_name.md) — called Ada\n' } },
      ]),
      text('I will remember that.'),
    );
    const card = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'memory'));
    await f.turn(sessionId, 'Remember that my name is Ada');
    const item = (await card).upserts.find((i) => i.kind === 'memory')!;
    expect(item).toMatchObject({ kind: 'memory', action: 'saved', title: 'Their name', type: 'user', by: 'agent' });
    expect(item.kind === 'memory' && item.diff).toContain('+The user is called Ada.');
    expect(f.events.some((e) => e.channel === 'chat:did-request-permission')).toBe(false);

    const undone = await f.call('chat:undo-memory', { undoToken: (item as { undoToken: string }).undoToken });
    expect(undone.undone).toBe(true);
    await expect(fs.stat(file)).rejects.toThrow();
    expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).not.toContain('user_name.md');
    // The card survives a reload of the conversation.
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    expect(view.items.some((i) => i.kind === 'memory' && i.title === 'Their name')).toBe(true);
  });

  it('refuses a memory write that holds a secret and tells the model which rule matched', async () => {
    f = await chatFixture();
    const sessionId = await f.newSession();
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const key = `ghp_${'a1B2c3D4e5F6g7H8i9J0'.repeat(2).slice(0, 36)}`;
    f.fake.enqueue(
      toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, 'reference_token.md'), content: `---\nname: token\ndescription: d\ntype: reference\n---\nThe token is ${key}\n` } }]),
      text('I left the token out.'),
    );
    await f.turn(sessionId, 'Remember my GitHub token');
    await expect(fs.stat(path.join(memoryDir, 'reference_token.md'))).rejects.toThrow();
    const results = f.fake.requests.at(-1)!.body.messages!.at(-1)!;
    const refusal = JSON.stringify(results);
    expect(refusal).toContain('tool_result');
    expect(refusal).toMatch(/rule [a-z0-9-]+ on line 6/);
    expect(refusal).not.toContain(key.slice(8));
  });

  it('asks once before a CLAUDE.md may include a file outside the project, and reads it after approval', async () => {
    f = await chatFixture();
    const outside = path.join(path.dirname(f.project), 'shared-rules.md');
    await fs.writeFile(outside, 'Shared rule: be brief.\n');
    await fs.writeFile(path.join(f.project, 'CLAUDE.md'), `Project rules.\n@${outside}\n`);
    const first = await f.newSession();
    const asked = f.next('chat:did-update', (u) => u.upserts.some((i) => i.kind === 'include-approval'));
    f.fake.enqueue(text('OK.'));
    await f.turn(first, 'Hello');
    const item = (await asked).upserts.find((i) => i.kind === 'include-approval')!;
    expect(item).toMatchObject({ path: outside, includedFrom: path.join(f.project, 'CLAUDE.md') });
    expect(lastRequestText(f.fake)).toContain('Project rules.');
    expect(lastRequestText(f.fake)).not.toContain('Shared rule');

    await f.call('chat:approve-include', { project: f.project, path: outside });
    // The conversation where it was asked sends it from its next turn, once.
    f.fake.enqueue(text('Brief.'), text('Still brief.'));
    await f.turn(first, 'Hello with the rule');
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.messages![0])).toContain('Shared rule: be brief.');
    await f.turn(first, 'And again');
    expect(lastRequestText(f.fake).split('Shared rule: be brief.').length - 1).toBe(1);
    expectAllAccepted(f.fake);
    const second = await f.newSession();
    f.fake.enqueue(text('OK.'));
    await f.turn(second, 'Hello again');
    expect(lastRequestText(f.fake)).toContain('Shared rule: be brief.');
    expect(f.events.filter((e) => e.channel === 'chat:did-update' && JSON.stringify(e.payload).includes('include-approval'))).toHaveLength(1);
  });

  const errorCases = [
    ['401', apiErrors.invalidKey(), 'invalid_key'],
    ['429', apiErrors.rateLimited(17), 'rate_limited'],
    ['529', apiErrors.overloaded(), 'overloaded'],
  ] as const;
  for (const [name, scripted, kind] of errorCases) {
    it(`turns a ${name} into a ${kind} banner, and Retry continues with a turn the strict API accepts`, async () => {
      f = await chatFixture();
      const sessionId = await f.newSession();
      f.fake.enqueue(scripted);
      const failed = await f.turn(sessionId, 'Hello');
      expect(failed.phase).toBe('error');
      expect(failed.error?.kind).toBe(kind);
      if (kind === 'rate_limited') expect(failed.error?.retryAfterSeconds).toBe(17);
      const before = await f.call('chat:open-session', { project: f.project, sessionId });
      expect(before.items[1]).toMatchObject({ kind: 'turn-end', reason: 'failed', text: expect.stringMatching(/^No answer — /) });
      f.fake.enqueue(text('Hello again.'));
      const settled = f.next('chat:did-update', (u) => u.sessionId === sessionId && u.phase === 'idle');
      await f.call('chat:retry', { project: f.project, sessionId });
      expect((await settled).error).toBeNull();
      const view = await f.call('chat:open-session', { project: f.project, sessionId });
      // The failed attempt stays, in its place, as what happened — no longer as "No answer" above the answer.
      expect(view.items.map((i) => i.kind)).toEqual(['user', 'turn-end', 'assistant']);
      expect(view.items[1]).toMatchObject({ id: before.items[1]!.id, reason: 'retried', text: expect.stringMatching(/^The first try failed \(.+\); Retry answered\.$/) });
      expect(f.fake.requests.at(-1)!.rejected).toBeNull();
    });
  }
});
