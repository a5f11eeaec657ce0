import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { parseFindingRefs } from '../../../../common/domain/secrets.js';
import { REDACTED_SECRET } from '../../../../main/core/secrets/index.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** Every file under `root` (following no links), with its text. */
async function filesUnder(root: string): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push({ file, text: await fs.readFile(file, 'latin1') });
  }
  return out;
}

const memoryNote = (body: string) => `---\nname: CI token\ndescription: the token CI pushes with\ntype: reference\n---\n${body}\n`;

describe('a memory write refused for a secret', () => {
  it('is recorded without the value: transcript, chat view, later requests and every file on disk; the refusal and its "Not a secret" reference stay', async () => {
    f = await chatFixture();
    const token = githubToken(new SeededRandom(41), 'ghp');
    const sessionId = await f.newSession();
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    const note = path.join(memoryDir, 'reference_ci.md');
    f.fake.enqueue(
      toolCalls([{ name: 'Write', input: { file_path: note, content: memoryNote(`CI pushes with ${token} from the release job.`) } }]),
      text('I kept the token out of memory.'),
    );
    await f.turn(sessionId, 'Remember how CI pushes');
    await expect(fs.stat(note)).rejects.toThrow();

    // The call stays, its value blanked and the words around it kept; the refusal names the rule and
    // carries the reference the card offers "Not a secret" with.
    const records = await f.transcript(sessionId);
    const call = records.flatMap((r) => ((r.message as { content?: unknown[] } | undefined)?.content ?? []) as { type: string; input?: { content: string } }[]).find((b) => b.type === 'tool_use')!;
    expect(call.input!.content).toBe(memoryNote(`CI pushes with ${REDACTED_SECRET} from the release job.`));
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    const card = view.items.find((i) => i.kind === 'tool')!;
    expect(card).toMatchObject({ kind: 'tool', name: 'Write', input: { file_path: note, content: expect.stringContaining(REDACTED_SECRET) } });
    expect(card.kind === 'tool' && parseFindingRefs(card.result ?? '')).toEqual([{ rule: 'github-pat', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) }]);

    // The next request carries the call as recorded.
    f.fake.enqueue(text('Nothing more to add.'));
    await f.turn(sessionId, 'Anything else?');
    const sent = JSON.stringify(f.fake.requests.at(-1)!.body.messages);
    expect(sent).toContain(REDACTED_SECRET);
    expect(sent).not.toContain(token);
    expectAllAccepted(f.fake);

    await f.restart();
    const onDisk = [...(await filesUnder(f.appData)), ...(await filesUnder(path.dirname(f.project)))];
    expect(onDisk.map((d) => d.file).some((file) => file.endsWith('.jsonl'))).toBe(true);
    expect(onDisk.filter((d) => d.text.includes(token)).map((d) => d.file)).toEqual([]);
  });

  it('blanks a value that is a secret only in the file the call would leave: an Edit of "<TBD>" in "password: <TBD>", and the memory tool alike', async () => {
    f = await chatFixture();
    const password = 'Xk9mQ2vL7pR4wzT8';
    const sessionId = await f.newSession();
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    const note = path.join(memoryDir, 'reference_db.md');
    const held = '---\nname: Staging database\ndescription: how to reach it\ntype: reference\n---\nhost: db.staging\npassword: <TBD>\n';
    await fs.writeFile(note, held);
    // Neither field holds a finding on its own: the replacement is a bare word.
    f.fake.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: note } }]),
      toolCalls([{ name: 'Edit', input: { file_path: note, old_string: '<TBD>', new_string: password } }]),
      toolCalls([{ name: 'memory', input: { command: 'str_replace', path: '/memories/reference_db.md', old_str: '<TBD>', new_str: password } }]),
      text('I left the password out.'),
    );
    await f.turn(sessionId, 'Put the staging password in that memory');
    expect(await fs.readFile(note, 'utf8')).toBe(held);
    const calls = (await f.transcript(sessionId))
      .flatMap((r) => ((r.message as { content?: unknown[] } | undefined)?.content ?? []) as { type: string; name?: string; input?: Record<string, unknown> }[])
      .filter((b) => b.type === 'tool_use' && b.name !== 'Read');
    expect(calls.map((c) => [c.name, c.input!.new_string ?? c.input!.new_str])).toEqual([
      ['Edit', REDACTED_SECRET],
      ['memory', REDACTED_SECRET],
    ]);
    f.fake.enqueue(text('Nothing more.'));
    await f.turn(sessionId, 'Anything else?');
    expect(JSON.stringify(f.fake.requests.at(-1)!.body.messages)).not.toContain(password);
    await f.restart();
    const onDisk = [...(await filesUnder(f.appData)), ...(await filesUnder(path.dirname(f.project)))];
    expect(onDisk.filter((d) => d.text.includes(password)).map((d) => d.file)).toEqual([]);
  });

  it('keeps a secret written to a project file (the user approves that write with its diff) and a memory write the user marked "Not a secret"', async () => {
    f = await chatFixture();
    const token = githubToken(new SeededRandom(42), 'ghp');
    const sessionId = await f.newSession();
    const memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
    await f.call('settings:set', { patch: { projects: { ...f.services.vault().settings.get().projects, [f.project]: { ...f.services.vault().settings.get().projects[f.project]!, alwaysAllowWrites: true } } } });
    const content = memoryNote(`CI pushes with ${token}.`);
    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: path.join(f.project, 'ci.md'), content } }]), text('Written.'));
    await f.turn(sessionId, 'Write it to ci.md');
    expect(await fs.readFile(path.join(f.project, 'ci.md'), 'utf8')).toBe(content);

    // Refused once, marked "Not a secret" by the user, then the same write goes through and is recorded as written.
    const note = path.join(memoryDir, 'reference_ci.md');
    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: note, content } }]), text('Refused.'));
    await f.turn(sessionId, 'Remember it');
    const view = await f.call('chat:open-session', { project: f.project, sessionId });
    const refusal = view.items.filter((i) => i.kind === 'tool').at(-1)!;
    const [ref] = parseFindingRefs(refusal.kind === 'tool' ? (refusal.result ?? '') : '');
    await f.call('secrets:allow', { ...ref!, where: 'memory write: reference_ci.md' });
    f.fake.enqueue(toolCalls([{ name: 'Write', input: { file_path: note, content } }]), text('Saved.'));
    await f.turn(sessionId, 'It is not a secret, save it');
    expect(await fs.readFile(note, 'utf8')).toContain(token);
    const inputs = (await f.transcript(sessionId))
      .flatMap((r) => ((r.message as { content?: unknown[] } | undefined)?.content ?? []) as { type: string; input?: { content: string } }[])
      .filter((b) => b.type === 'tool_use')
      .map((b) => b.input!.content.includes(token));
    expect(inputs).toEqual([true, false, true]);
  });
});
