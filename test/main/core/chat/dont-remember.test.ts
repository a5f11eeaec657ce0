import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../../../main/core/auth/credential-store.js';
import { ChatRunner, DONT_REMEMBER_FILE } from '../../../../main/core/chat/chat-runner.js';
import { systemClock } from '../../../../main/core/ports.js';
import { text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { testLogger } from '../../../support/test-logger.js';
import { chatFixture, lastUserText, type ChatFixture } from './chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const memory = (title: string, type: string) => `---\nname: ${title}\ndescription: ${title} in one line\ntype: ${type}\n---\n${title}.\n`;

/** A chat whose extractor saves `saves[n]` on its n-th run; returns each run's card. */
async function extractingChat(saves: { file: string; title: string; type: string }[]) {
  let run = 0;
  let memoryDir = '';
  f = await chatFixture({
    fake: {
      respond: (request) => {
        if (lastUserText(request).includes('tool_result')) return text('Done.');
        if (!lastUserText(request).includes('You are the memory extractor')) return text('OK.');
        const save = saves[run++]!;
        return toolCalls([{ name: 'Write', input: { file_path: path.join(memoryDir, save.file), content: memory(save.title, save.type) } }]);
      },
    },
  });
  await f.switches({ extraction: true });
  memoryDir = (await f.services.vault().sessions.paths(f.project)).memoryDir;
  const sessionId = await f.newSession();
  const cards: { id: string }[] = [];
  for (const [i] of saves.entries()) {
    const card = f.next('chat:did-update', (u) => u.upserts.some((item) => item.kind === 'memory' && item.by === 'extractor' && !cards.some((c) => c.id === item.id)));
    await f.turn(sessionId, `Turn ${i}: something worth keeping.`);
    cards.push((await card).upserts.find((item) => item.kind === 'memory')!);
  }
  await f.services.vault().chat.find(sessionId)!.idle();
  return { f, memoryDir, sessionId, cards };
}

describe('"Don’t remember things like this"', () => {
  it('adds each kind to one feedback memory: a second use appends, a repeat changes nothing, and the index has one line', async () => {
    const { f, memoryDir, sessionId, cards } = await extractingChat([
      { file: 'user_tabs.md', title: 'Prefers tabs', type: 'feedback' },
      { file: 'user_lunch.md', title: 'Lunch order', type: 'user' },
    ]);
    const first = await f.call('chat:dont-remember', { project: f.project, sessionId, itemId: cards[0]!.id });
    const second = await f.call('chat:dont-remember', { project: f.project, sessionId, itemId: cards[1]!.id });
    await f.call('chat:dont-remember', { project: f.project, sessionId, itemId: cards[0]!.id });
    expect(first.saved).toBe(second.saved);
    expect(path.basename(first.saved)).toBe(DONT_REMEMBER_FILE);
    const feedback = await fs.readFile(path.join(f.services.vault().root, first.saved), 'utf8');
    expect(feedback).toContain('type: feedback');
    expect(feedback.match(/^- “Prefers tabs” \(a feedback memory\)$/gm)).toHaveLength(1);
    expect(feedback.match(/^- “Lunch order” \(a user memory\)$/gm)).toHaveLength(1);
    const index = await fs.readFile(path.join(memoryDir, 'MEMORY.md'), 'utf8');
    expect(index.split('\n').filter((l) => l.includes(`(${DONT_REMEMBER_FILE})`))).toHaveLength(1);
    await expect(fs.stat(path.join(memoryDir, 'user_tabs.md'))).rejects.toThrow();
  });

  it('through the vault layer, keeps the previous text in the file’s history and creates the index line once', async () => {
    const { f, sessionId, cards } = await extractingChat([
      { file: 'user_tabs.md', title: 'Prefers tabs', type: 'feedback' },
      { file: 'user_lunch.md', title: 'Lunch order', type: 'user' },
    ]);
    const v = f.services.vault();
    await v.ready;
    const log = testLogger();
    const runner = new ChatRunner({
      env: { vaultRoot: v.root, settings: () => v.settings.get(), config: v.memoryConfig, credentials: new MemoryCredentialStore(), env: {} },
      vaultFiles: v.files,
      settings: v.settings,
      transcripts: v.transcripts,
      catalog: v.sessions,
      clock: systemClock,
      logger: log.logger,
    });
    const { saved } = await runner.dontRemember(f.project, sessionId, cards[0]!.id);
    expect(await v.files.timeline(saved)).toHaveLength(0);
    await runner.dontRemember(f.project, sessionId, cards[1]!.id);
    const versions = await v.files.timeline(saved);
    expect(versions).toHaveLength(1);
    const before = await v.files.readVersion(saved, versions[0]!.hash);
    expect(before.text).toContain('Prefers tabs');
    expect(before.text).not.toContain('Lunch order');
    expect((await v.files.read(saved)).text).toContain('- “Lunch order” (a user memory)');
    const index = (await v.files.read(`${path.dirname(saved)}/MEMORY.md`)).text;
    expect(index.split('\n').filter((l) => l.includes(`(${DONT_REMEMBER_FILE})`))).toHaveLength(1);
    log.assertNoErrors();
  });
});
