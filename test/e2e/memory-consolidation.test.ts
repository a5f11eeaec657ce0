import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic, type WireRequest } from '../fakes/anthropic-server/index.js';
import { tempDir } from '../support/temp-dir.js';
import { closeAfterEach, startApp, type TestApp } from './support/app.js';
import { expectAccessible, hasChromium, openPage, useBrowser } from './support/browser.js';
import { memoryDirOf, prepareChat, TEST_API_KEY } from './support/chat-app.js';
import { tidyMemoryNow } from './support/memory-project.js';
import { themedScreenshots } from './support/screenshots.js';

const memory = (name: string, description: string, type: string, body: string) => `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`;
const seeded: Record<string, string> = {
  'MEMORY.md': '- [Deadline](project_deadline.md) — launch deadline\n- [Deadline again](project_deadline_2.md) — launch deadline\n- [City](user_city.md) — where the user lives\n- [New city](user_city_new.md) — the move\n',
  'project_deadline.md': memory('Deadline', 'launch deadline', 'project', 'The launch is next Friday.'),
  'project_deadline_2.md': memory('Deadline again', 'launch deadline', 'project', 'Launch deadline: next Friday, no slip.'),
  'user_city.md': memory('City', 'where the user lives', 'user', 'Lives in Lisbon.'),
  'user_city_new.md': memory('New city', 'the move', 'user', 'Moved to Porto in November.'),
};
const merged = memory('Deadline', 'launch deadline (absolute date)', 'project', 'The launch is on 2026-12-11; no slip.');

/** The fake model as the real one answers the tidy-up: reads, then one batch of writes, then the reasons. */
function tidyResponder(dir: string) {
  const p = (name: string) => path.join(dir, name);
  return (request: WireRequest) => {
    const turns = (request.messages ?? []).filter((m) => m.role === 'assistant').length;
    if (turns === 0) return toolCalls(Object.keys(seeded).map((n) => ({ name: 'Read', input: { file_path: p(n) } })));
    if (turns === 1) {
      return toolCalls([
        { name: 'Write', input: { file_path: p('project_deadline.md'), content: merged } },
        { name: 'Delete', input: { file_path: p('project_deadline_2.md') } },
        { name: 'Delete', input: { file_path: p('user_city.md') } },
        { name: 'Write', input: { file_path: p('MEMORY.md'), content: '- [Deadline](project_deadline.md) — launch deadline (absolute date)\n- [New city](user_city_new.md) — the move\n' } },
      ]);
    }
    return text(
      '- project_deadline.md: merged the two deadline notes and made "next Friday" 2026-12-11\n- project_deadline_2.md: duplicate of project_deadline.md\n- user_city.md: contradicted by user_city_new.md (moved to Porto)\n- MEMORY.md: dropped the lines of the removed files',
    );
  };
}

async function screenshots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    document.getElementById('tidy-heading')?.scrollIntoView({ block: 'start' });
  });
  await themedScreenshots(page, name);
}


describe.skipIf(!hasChromium)('tidying memory from the Inbox', () => {
  const browser = useBrowser();
  let app: TestApp | null = null;
  let fake: FakeAnthropic | null = null;
  closeAfterEach(() => [app, fake]);

  it('"Tidy memory now" shows one changeset with a diff and a reason per file; accepted in part, then one change undone', async () => {
    const project = path.join(await tempDir('strata-e2e-tidy-'), 'launch');
    app = await startApp(await tempDir(), { env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
    let real = '';
    fake = await startFakeAnthropic({ strict: true, respond: (r) => tidyResponder(real)(r) });
    await prepareChat(app.services, { project, baseUrl: fake.url });
    const dir = await memoryDirOf(app.services, project);
    await fs.mkdir(dir, { recursive: true });
    for (const [name, body] of Object.entries(seeded)) await fs.writeFile(path.join(dir, name), body);
    real = await fs.realpath(dir);

    const { page, errors } = await openPage(browser(), app.host.url, 'memory-tidy');
    const inbox = await tidyMemoryNow(page, 'launch');
    const deadline = inbox.getByRole('article', { name: 'Update: Deadline' });
    const city = inbox.getByRole('article', { name: 'Delete: City' });
    await deadline.getByText('merged the two deadline notes and made "next Friday" 2026-12-11').waitFor();
    await inbox.getByText('4 of 4 waiting').waitFor();
    // One date format where a user reads a date: the locale's medium date, never 12/7/2026 beside 2026-12-07.
    expect(await inbox.getByText(/^Proposed /).innerText()).toMatch(/^Proposed [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M — /);
    // One Inbox, no contradiction: the empty conversations section does not say that nothing is waiting.
    await inbox.getByText('No memory from your conversations is waiting.').waitFor();
    expect(await inbox.getByText('Nothing is waiting').count()).toBe(0);
    // Each change as the memory, by its name, side by side: no unified diff, no vault path.
    await inbox.getByRole('article', { name: 'Update: The memory index' }).waitFor();
    expect(await deadline.getByLabel('Now').innerText()).toContain('The launch is next Friday.');
    expect(await deadline.getByLabel('After the change').innerText()).toContain('The launch is on 2026-12-11; no slip.');
    await city.getByLabel('Deleted').waitFor();
    const shown = await inbox.innerText();
    expect(shown).not.toMatch(/@@ -|^--- |^\+\+\+ |projects\//m);
    expect(await fs.readFile(path.join(dir, 'project_deadline.md'), 'utf8')).toBe(seeded['project_deadline.md']);
    await expectAccessible(page);
    await screenshots(page, 'memory-tidy-inbox');

    await deadline.getByRole('button', { name: 'Accept' }).click();
    await deadline.getByText('Applied').waitFor();
    await city.getByRole('button', { name: 'Reject' }).click();
    await city.getByText('Rejected').waitFor();
    await inbox.getByRole('button', { name: 'Accept all' }).click();
    await inbox.getByText('0 of 4 waiting').waitFor();
    expect(await fs.readFile(path.join(dir, 'project_deadline.md'), 'utf8')).toBe(merged);
    expect((await fs.readdir(dir)).filter((n) => n.endsWith('.md')).sort()).toEqual(['MEMORY.md', 'project_deadline.md', 'user_city.md', 'user_city_new.md']);
    expect(await fs.readFile(path.join(dir, 'MEMORY.md'), 'utf8')).toContain('(user_city.md)');

    await deadline.getByRole('button', { name: 'Undo' }).click();
    await deadline.getByText('Undone').waitFor();
    expect(await fs.readFile(path.join(dir, 'project_deadline.md'), 'utf8')).toBe(seeded['project_deadline.md']);
    expect(fake.requests.map((r) => r.rejected)).toEqual([null, null, null]);
    expect(errors).toEqual([]);
  });
});
