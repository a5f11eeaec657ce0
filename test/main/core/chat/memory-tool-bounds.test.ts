import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { text, toolCalls, type ScriptedResponse, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');

/**
 * One turn of memory-tool calls, one per response, and the answers the model got back in order. Recall's
 * selector (it asks first when the folder holds memories) picks none.
 */
async function memoryTurn(fx: ChatFixture, calls: Record<string, unknown>[]) {
  script.splice(0, script.length, ...calls.map((input) => toolCalls([{ name: 'memory', input }])), text('Done.'));
  await fx.turn(await fx.newSession(), 'Update your memory.');
  return fx.fake.requests
    .filter((r) => !isSelector(r.body))
    .flatMap((r) => (r.body.messages!.at(-1)!.content as { type: string; content?: unknown; is_error?: boolean }[]).filter((b) => typeof b === 'object' && b.type === 'tool_result'))
    .map((result) => ({ content: String(result.content), isError: result.is_error === true }));
}

const script: ScriptedResponse[] = [];

async function memoryToolFixture() {
  const fx = await chatFixture({ fake: { respond: (r) => (isSelector(r) ? text('{"selected_memories": []}') : (script.shift() ?? text('Done.'))) } });
  await fx.call('settings:set', { patch: { memoryWrites: 'memory-tool' } });
  const memoryDir = (await fx.services.vault().sessions.paths(fx.project)).memoryDir;
  await fs.mkdir(memoryDir, { recursive: true });
  return { fx, memoryDir };
}

const note = '---\nname: Role\ndescription: what the user does\ntype: user\n---\nDesigner.\n';

describe('the memory tool names and lists files safely', () => {
  it('refuses a file or folder name with a line feed, a carriage return, an escape or a direction control, and writes nothing', async () => {
    const t = await memoryToolFixture();
    f = t.fx;
    await fs.writeFile(path.join(t.memoryDir, 'user_role.md'), note);
    const answers = await memoryTurn(f, [
      { command: 'create', path: '/memories/user_role\n- [Fake](evil.md).md', file_text: note },
      { command: 'create', path: '/memories/user\rrole.md', file_text: note },
      { command: 'create', path: '/memories/\u001b[2Jclear.md', file_text: note },
      { command: 'create', path: '/memories/a\nb/user.md', file_text: note },
      { command: 'create', path: '/memories/gpj\u202Eexe.md', file_text: note },
      { command: 'rename', old_path: '/memories/user_role.md', new_path: '/memories/user\nrole.md' },
    ]);
    expect(answers.map((a) => a.isError)).toEqual(answers.map(() => true));
    for (const [i, what] of ['a line feed', 'a carriage return', 'an escape character', 'a line feed', 'a text-direction control', 'a line feed'].entries()) {
      expect(answers[i]!.content, String(i)).toContain(`it contains ${what}`);
    }
    expect(await fs.readdir(t.memoryDir)).toEqual(['user_role.md']);
    expectAllAccepted(f.fake);
  });

  it('lists a folder of 3,000 memories one page at a time, and view_range pages through the entries', async () => {
    const t = await memoryToolFixture();
    f = t.fx;
    const names = Array.from({ length: 3000 }, (_, i) => `project_${String(i).padStart(4, '0')}.md`);
    await Promise.all(names.map((name) => fs.writeFile(path.join(t.memoryDir, name), note)));
    const page = defaultMemoryConfig.agent.globMaxResults;
    const [first, second, last, beyond] = await memoryTurn(f, [
      { command: 'view', path: '/memories' },
      { command: 'view', path: '/memories', view_range: [page + 1, 2 * page] },
      { command: 'view', path: '/memories', view_range: [2990, -1] },
      { command: 'view', path: '/memories', view_range: [4000, 4100] },
    ]);
    const listed = (answer: { content: string }) => answer.content.split('\n').filter((l) => /\t\/memories\/project_/.test(l)).map((l) => l.split('/').pop());
    expect(listed(first!)).toEqual(names.slice(0, page));
    expect(first!.content).toContain(`(Showing entries 1–${page} of 3000; at most ${page} at a time. Pass view_range [${page + 1}, ${2 * page}] for the next ones, or view a subfolder.)`);
    expect(first!.content.length).toBeLessThan(8_000);
    expect(listed(second!)).toEqual(names.slice(page, 2 * page));
    expect(listed(last!)).toEqual(names.slice(2989));
    expect(last!.content).toContain('(Showing entries 2990–3000 of 3000; at most');
    expect(listed(beyond!)).toEqual([]);
    expect(beyond!.content).toContain('(Showing no entries of 3000;');
    expectAllAccepted(f.fake);
  });

  it('lists a small folder whole, as the reference implementation does, links out of the folder left out', async () => {
    const t = await memoryToolFixture();
    f = t.fx;
    await fs.mkdir(path.join(t.memoryDir, 'topics'));
    await fs.writeFile(path.join(t.memoryDir, 'MEMORY.md'), '- [Role](user_role.md) — what the user does\n');
    await fs.writeFile(path.join(t.memoryDir, 'user_role.md'), note);
    await fs.writeFile(path.join(t.memoryDir, 'topics', 'deploys.md'), note);
    await fs.writeFile(path.join(t.memoryDir, '.hidden.md'), note);
    await fs.writeFile(path.join(f.project, 'app.ts'), 'export {};\n');
    await fs.symlink(path.join(f.project, 'app.ts'), path.join(t.memoryDir, 'out.md'));
    const [answer] = await memoryTurn(f, [{ command: 'view', path: '/memories' }]);
    expect(answer!.content.split('\n').slice(1).map((l) => l.split('\t')[1])).toEqual(['/memories', '/memories/MEMORY.md', '/memories/topics/', '/memories/topics/deploys.md', '/memories/user_role.md']);
    expect(answer!.content).not.toContain('Showing');
  });
});
