import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic, type WireRequest } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { tidyMemoryNow } from './support/memory-project.js';

const memory = (i: number) => `---\nname: Note ${i}\ndescription: what note ${i} says\ntype: project\n---\n\nBody of note ${i}.\n`;
const line = (i: number) => `- [Note ${i}](note-${i}.md) — what note ${i} says`;
const index = (skip: number | null) => `${Array.from({ length: 200 }, (_, i) => i).filter((i) => i !== skip).map(line).join('\n')}\n`;

/** The fake model's tidy-up: reads the index, deletes note-1.md (a duplicate of note-0.md) and drops its line. */
function tidyResponder(dir: () => string) {
  return (request: WireRequest) => {
    const turns = (request.messages ?? []).filter((m) => m.role === 'assistant').length;
    if (turns === 0) return toolCalls([{ name: 'Read', input: { file_path: path.join(dir(), 'MEMORY.md') } }]);
    if (turns === 1) {
      return toolCalls([
        { name: 'Delete', input: { file_path: path.join(dir(), 'note-1.md') } },
        { name: 'Write', input: { file_path: path.join(dir(), 'MEMORY.md'), content: index(1) } },
      ]);
    }
    return text('- note-1.md: duplicate of note-0.md\n- MEMORY.md: dropped the line of the removed file');
  };
}

/**
 * The Inbox's Undo of a tidy-up's delete at a full MEMORY.md (docs/memory.md#vault-upkeep): the memory
 * comes back, the index is left as it is, and the toast names the cap and offers the tidy-up, as New memory's does.
 */
describe.skipIf(!hasChromium)('undoing a tidy-up at a full MEMORY.md, in Chromium via strata host', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('Undo of a delete brings the memory back without its line once the freed line is taken, and the toast says so', async () => {
    const project = path.join(await tempDir('strata-e2e-tidy-cap-'), 'launch');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    let real = '';
    fake = await startFakeAnthropic({ strict: true, respond: tidyResponder(() => real) });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const dir = await memoryDirOf(app.services, project);
    await fs.mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: 200 }, (_, i) => fs.writeFile(path.join(dir, `note-${i}.md`), memory(i))));
    await fs.writeFile(path.join(dir, 'MEMORY.md'), index(null));
    real = await fs.realpath(dir);

    const { page, errors } = await openPage(browser(), app.host.url, 'memory-tidy-undo-cap');
    const inbox = await tidyMemoryNow(page, 'launch');
    const deletion = inbox.getByRole('article', { name: 'Delete: Note 1' });
    await deletion.getByText('duplicate of note-0.md').waitFor();
    await inbox.getByRole('button', { name: 'Accept all' }).click();
    await inbox.getByText('0 of 2 waiting').waitFor();
    await expect.poll(() => fs.access(path.join(dir, 'note-1.md')).then(() => true, () => false)).toBe(false);

    // Meanwhile another memory takes the freed line: the index is at its 200-line cap again.
    await fs.writeFile(path.join(dir, 'note-200.md'), memory(200));
    await fs.appendFile(path.join(dir, 'MEMORY.md'), `${line(200)}\n`);
    const full = await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8');
    expect(full.trimEnd().split('\n')).toHaveLength(200);

    await deletion.getByRole('button', { name: 'Undo' }).click();
    await deletion.getByText('Undone').waitFor();
    const toast = page.locator('.toast');
    await toast.getByText('Brought back “Note 1”. It is not listed in MEMORY.md: the index is full, and the agent reads only its first 200 lines').waitFor();
    await toast.getByRole('button', { name: 'Tidy memory in the Inbox' }).waitFor();
    expect(await fs.readFile(path.join(dir, 'note-1.md'), 'utf8')).toBe(memory(1));
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toBe(full);
    expect(errors).toEqual([]);
  });
});
