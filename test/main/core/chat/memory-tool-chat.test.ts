import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../../common/domain/chat.js';
import { MemoryUsageStore } from '../../../../main/core/auto-memory/index.js';
import { text, toolCalls, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const memoryCall = (input: Record<string, unknown>) => toolCalls([{ name: 'memory', input }]);

/** One turn in which the model makes these memory-tool calls, one per response, then answers. */
async function turnWith(fx: ChatFixture, sessionId: string, calls: Record<string, unknown>[]) {
  fx.fake.enqueue(...calls.map(memoryCall), text('Done.'));
  const before = fx.fake.requests.length;
  await fx.turn(sessionId, 'Please update your memory.');
  // Each request after the first carries the previous call's tool result: the answers the model saw.
  return fx.fake.requests.slice(before + 1).map((r) => {
    const last = r.body.messages!.at(-1)!;
    const result = (last.content as { type: string; content?: unknown; is_error?: boolean }[]).find((b) => b.type === 'tool_result')!;
    return { content: String(result.content), isError: result.is_error === true };
  });
}

const memoryCards = (fx: ChatFixture): Extract<ChatItem, { kind: 'memory' }>[] =>
  fx.events.flatMap((e) => (e.channel === 'chat:did-update' ? (e.payload as { upserts: ChatItem[] }).upserts : [])).filter((i): i is Extract<ChatItem, { kind: 'memory' }> => i.kind === 'memory');

describe('the API memory tool, mapped onto the project memory folder', () => {
  it('is offered as the memory_20250818 tool, and its six commands act on the memory folder with cards, history and MEMORY.md', async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { memoryWrites: 'memory-tool' } });
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const sessionId = await f.newSession();
    const tabs = '---\nname: Prefers tabs\ndescription: Indent with tabs, not spaces\ntype: feedback\n---\nUse tabs.\n';
    const answers = await turnWith(f, sessionId, [
      { command: 'create', path: '/memories/feedback_tabs.md', file_text: tabs },
      { command: 'create', path: '/memories/MEMORY.md', file_text: '- [Prefers tabs](feedback_tabs.md) — tabs, not spaces\n' },
      { command: 'str_replace', path: '/memories/feedback_tabs.md', old_str: 'Use tabs.', new_str: 'Use tabs, width 4.' },
      { command: 'insert', path: '/memories/feedback_tabs.md', insert_line: 6, insert_text: '**Why:** the team style guide.' },
      { command: 'view', path: '/memories/feedback_tabs.md' },
      { command: 'view', path: '/memories' },
      { command: 'rename', old_path: '/memories/feedback_tabs.md', new_path: '/memories/feedback_indent.md' },
      { command: 'delete', path: '/memories/feedback_indent.md' },
    ]);
    expect(answers.map((a) => a.isError)).toEqual(answers.map(() => false));
    expect(answers[0]!.content).toBe('File created successfully at: /memories/feedback_tabs.md');
    expect(answers[2]!.content).toContain('The memory file has been edited.');
    expect(answers[2]!.content).toContain('Use tabs, width 4.');
    expect(answers[3]!.content).toBe('The file /memories/feedback_tabs.md has been edited.');
    expect(answers[4]!.content).toContain("Here's the content of /memories/feedback_tabs.md with line numbers:");
    expect(answers[4]!.content).toMatch(/ {5}7\t\*\*Why:\*\* the team style guide\./);
    expect(answers[5]!.content).toContain('/memories/MEMORY.md');
    expect(answers[5]!.content).toContain('/memories/feedback_tabs.md');
    // No answer names the real folder: the model's world is /memories.
    expect(answers.map((a) => a.content).join('\n')).not.toContain(memoryDir);
    expect(answers[6]!.content).toBe('Successfully renamed /memories/feedback_tabs.md to /memories/feedback_indent.md');
    expect(answers[7]!.content).toBe('Successfully deleted /memories/feedback_indent.md');

    expect(await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8')).toContain('feedback_tabs.md');
    await expect(fs.stat(path.join(memoryDir, 'feedback_tabs.md'))).rejects.toThrow();
    await expect(fs.stat(path.join(memoryDir, 'feedback_indent.md'))).rejects.toThrow();

    // Every change got its card, as a Write/Edit/Delete of a memory does.
    const cards = memoryCards(f);
    expect(cards.some((c) => c.action === 'saved' && c.path.endsWith('feedback_tabs.md') && c.title === 'Prefers tabs')).toBe(true);
    expect(cards.some((c) => c.action === 'deleted' && c.path.endsWith('feedback_indent.md'))).toBe(true);

    const first = f.fake.requests[0]!;
    expect(first.body.tools).toContainEqual(expect.objectContaining({ type: 'memory_20250818', name: 'memory' }));
    expect(JSON.stringify(first.body.system)).toContain('/memories');
    // Context editing never clears what the memory tool read.
    expect(JSON.stringify((first.body as { context_management?: unknown }).context_management)).toContain('"exclude_tools":["memory"]');
    expectAllAccepted(f.fake);
  });

  it('moves a memory\'s use count with it when the model renames it', async () => {
    // With a memory in the folder recall asks its selector first; it picks none, the model renames.
    const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');
    let mainCalls = 0;
    const rename = { command: 'rename', old_path: '/memories/user_role.md', new_path: '/memories/user_designer.md' };
    f = await chatFixture({ fake: { respond: (r) => (isSelector(r) ? text('{"selected_memories": []}') : mainCalls++ === 0 ? memoryCall(rename) : text('Renamed.')) } });
    await f.call('settings:set', { patch: { memoryWrites: 'memory-tool' } });
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(memoryDir, 'user_role.md'), '---\nname: Role\ndescription: The user designs checkouts\ntype: user\n---\nDesigner.\n');
    const root = f.services.vault().root;
    const usage = MemoryUsageStore.forVault(root, f.services.config.clock);
    await usage.record([path.join(memoryDir, 'user_role.md')], 'earlier');
    await usage.record([path.join(memoryDir, 'user_role.md')], 'earlier');
    const rel = (file: string) => path.relative(root, path.join(memoryDir, file)).split(path.sep).join('/');

    await f.turn(await f.newSession(), 'Call that memory "designer".');
    await expect(fs.stat(path.join(memoryDir, 'user_designer.md'))).resolves.toBeTruthy();
    const files = (await usage.all()).files;
    expect(files[rel('user_designer.md')]?.count).toBe(2);
    expect(files[rel('user_role.md')]).toBeUndefined();
  });

  it('refuses paths outside /memories, path tricks, links out of the folder and secrets, and writes nothing', async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { memoryWrites: 'memory-tool' } });
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(f.project, 'app.ts'), 'export {};\n');
    await fs.symlink(f.project, path.join(memoryDir, 'out'));
    const sessionId = await f.newSession();
    const answers = await turnWith(f, sessionId, [
      { command: 'create', path: '/etc/passwd.md', file_text: 'x' },
      { command: 'create', path: '/memories/../escape.md', file_text: 'x' },
      { command: 'create', path: '/memories/a/./b.md', file_text: 'x' },
      { command: 'view', path: '/memories/out/app.ts' },
      { command: 'create', path: '/memories/out/new.md', file_text: 'x' },
      { command: 'create', path: '/memories/keys.md', file_text: '---\nname: Keys\ndescription: d\ntype: reference\n---\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY9z\nAKIAZ3MSJV4WWNXFN4P7\n' },
      { command: 'delete', path: '/memories' },
    ]);
    expect(answers.map((a) => a.isError)).toEqual(answers.map(() => true));
    expect(answers[0]!.content).toBe('Path must start with /memories, got: /etc/passwd.md');
    expect(answers[1]!.content).toContain('would escape /memories directory');
    expect(answers[2]!.content).toContain('would escape /memories directory');
    expect(answers[3]!.content).toContain('via symlink');
    expect(answers[4]!.content).toContain('via symlink');
    expect(answers[5]!.content).toMatch(/Refused: rule .+ on line/);
    expect(answers[5]!.content).not.toContain('AKIAZ3MSJV4WWNXFN4P7');
    expect(answers[6]!.content).toBe('Cannot delete the /memories directory itself');
    expect((await fs.readdir(memoryDir)).sort()).toEqual(['out']);
    expect(await fs.readdir(f.project)).toEqual(['app.ts']);
    expect(memoryCards(f)).toEqual([]);
    expectAllAccepted(f.fake);
  });

  it('holds a memory-tool write for review like any other memory write when review mode is on', async () => {
    f = await chatFixture();
    await f.call('settings:set', { patch: { memoryWrites: 'memory-tool' } });
    await f.switches({ reviewMode: true });
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const sessionId = await f.newSession();
    const answers = await turnWith(f, sessionId, [{ command: 'create', path: '/memories/user_role.md', file_text: '---\nname: Role\ndescription: The user is a teacher\ntype: user\n---\nTeaches maths.\n' }]);
    // Review mode holds only the background extractor's writes; the agent's own "remember" lands at once.
    expect(answers[0]!.isError).toBe(false);
    expect(await fs.readFile(path.join(memoryDir, 'user_role.md'), 'utf8')).toContain('Teaches maths.');
  });
});
