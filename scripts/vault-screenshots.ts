// `npx tsx scripts/vault-screenshots.ts`: the vault, its history and session notes in Chromium through
// `strata host`, at 1280×800 and 1024×700, light and dark, into docs/screenshots/ (README, docs/).
// Needs `node scripts/build.mjs` first. The vault is a fresh, made-up one in a temp folder.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createServices } from '../main/core/services.js';
import { createDispatcher } from '../main/core/ipc/dispatcher.js';
import { createHandlers } from '../main/core/ipc/handlers.js';
import { startHost } from '../main/host/host-server.js';
import { silentLogger } from '../main/core/ports.js';
import { DEFAULT_NOTES_TEMPLATE, joinSections, parseSections, sectionOf } from '../main/core/session-memory/index.js';
import { launchChromium } from '../test/e2e/support/chromium.js';

const OUT = path.resolve('docs/screenshots');
const SLUG = '-home-ana-garden-planner';
const SESSION = '3f6c2a9e-1b7d-4e0a-9c55-7d2e8f1a4b60';

const memory = (name: string, description: string, type: string, body: string) =>
  `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\ntype: ${type}\n---\n\n${body}\n`;

/** Ana's session notes: the default template, some sections filled in as the notes fork would. */
const NOTES = fillNotes({
  'Session Title': 'Watering schedule for the raised beds',
  'Current State': 'The schedule table is done; next, a reminder the evening before each watering day.',
  'Task specification': 'Ana wants one watering plan for the four raised beds, in the garden-planner sheet, by bed and weekday.',
  'Errors & Corrections': "Bed 3 holds tomatoes, not herbs: corrected after Ana's note.",
  'Key results': '| Bed | Mon | Wed | Fri |\n| --- | --- | --- | --- |\n| 1 (lettuce) | ✓ | ✓ | ✓ |\n| 3 (tomatoes) | ✓ |  | ✓ |',
  Worklog: "- Read the sheet's Beds tab\n- Wrote the table, checked it with Ana",
});

function fillNotes(content: Record<string, string>): string {
  const parsed = parseSections(DEFAULT_NOTES_TEMPLATE);
  const sections = parsed.sections.map((section) => {
    const added = content[section.title];
    if (added === undefined) return section;
    // The body is the italic description line; the content goes under it, before the blank line.
    const body = section.body.replace(/\n*$/, '\n') + `${added}\n` + (section.body.endsWith('\n\n') ? '\n' : '');
    return sectionOf(`${section.headerLine}\n${body}`);
  });
  return joinSections({ ...parsed, sections });
}

async function seed(root: string): Promise<string> {
  const dir = path.join(root, 'projects', SLUG, 'memory');
  await fs.mkdir(dir, { recursive: true });
  const memories: [string, string, string, string, string][] = [
    ['water-early.md', 'Water in the morning', 'Watering happens before 9 am, never in the evening (slugs)', 'feedback', 'Water before 9 am.\n\n**Why:** evening watering brought slugs last summer.'],
    ['bed-3.md', 'Bed 3 is tomatoes', 'Raised bed 3 holds the tomatoes: stake them, water at the root', 'project', 'Bed 3: six tomato plants, staked.'],
    ['bed-10.md', 'Bed 10 is the herb spiral', 'The herb spiral counts as bed 10 in the sheet', 'project', 'Rosemary at the top, mint at the bottom.'],
    ['ana-units.md', 'Ana uses metric', 'Ana measures in litres and centimetres', 'user', 'Give amounts in litres.'],
    ['seed-suppliers.md', 'Seed suppliers', 'Where the seeds come from: two local nurseries', 'reference', 'Greenhouse Lane and the Saturday market stall.'],
  ];
  for (const [file, name, description, type, body] of memories) await fs.writeFile(path.join(dir, file), memory(name, description, type, body));
  await fs.writeFile(path.join(dir, 'MEMORY.md'), memories.map(([file, name, description]) => `- [${name}](${file}) — ${description}`).join('\n') + '\n');
  await fs.writeFile(path.join(root, 'CLAUDE.md'), '# My instructions\n\nAnswer in plain words. Amounts in metric.\n');
  const notes = path.join(root, 'projects', SLUG, SESSION, 'session-memory');
  await fs.mkdir(notes, { recursive: true });
  await fs.writeFile(path.join(notes, 'summary.md'), NOTES);
  return `projects/${SLUG}/memory/water-early.md`;
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const [w, h] of [[1280, 800], [1024, 700]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(OUT, `${name}-${w}x${h}-${scheme}.png`) });
    }
  }
}

const appData = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-shots-'));
const watered = await seed(appData);
const services = await createServices({ appDataDir: appData, shell: 'host', logger: silentLogger, env: {} });
await services.vault().ready;
// Some history: a change from outside Strata (the agent's tool), then the user's edit.
const files = services.vault().files;
let file = await files.read(watered);
file = await files.write(watered, file.text.replace('Water before 9 am.', 'Water before 9 am, at the root.'), { baseHash: file.hash, reason: 'before-external-change' });
await files.write(watered, file.text.replace('at the root.', 'at the root, about 5 litres a bed.'), { baseHash: file.hash, reason: 'autosave' });
const host = await startHost({ rendererDir: path.resolve('dist/renderer'), dispatch: createDispatcher(createHandlers(services, 'host'), silentLogger), events: services.events, logger: silentLogger });
const browser = await launchChromium();
try {
  await fs.mkdir(OUT, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(host.url);
  await page.getByRole('button', { name: /^Vault/ }).click();
  await page.getByRole('button', { name: /Water in the morning/ }).click();
  await page.getByRole('heading', { name: 'Water in the morning', level: 1 }).waitFor();
  await shoot(page, 'vault');
  await page.getByRole('button', { name: 'History', exact: true }).click();
  await page.locator('.timeline button').last().click();
  await page.getByLabel('This version', { exact: true }).waitFor();
  await shoot(page, 'vault-history');
  await page.getByRole('button', { name: /Notes from|Watering schedule/ }).first().click();
  await page.getByRole('heading', { name: 'Watering schedule for the raised beds', level: 1 }).waitFor();
  await shoot(page, 'session-notes');
  process.stdout.write(`screenshots in ${OUT}\n`);
} finally {
  await browser.close();
  await host.close();
  await services.close();
  await fs.rm(appData, { recursive: true, force: true });
}
