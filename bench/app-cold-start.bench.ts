import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { createServices } from '../main/core/services.js';
import { silentLogger } from '../main/core/ports.js';
import { launchChromium } from '../test/e2e/support/chromium.js';
import { line, median, type Bench } from './harness.js';
import { generateMemoryTexts } from './recall-rank.bench.js';
import { benchDir } from './vault-fixture.js';
import { hostFor, missing } from './vault-ui-support.js';

/**
 * app-cold-start (docs/architecture.md#start): `strata host` started over a vault whose one project holds
 * 10,000 memories, with the search cache removed (a cold start), to the projects list shown in Chromium.
 * The baseline is the same start over the same project with no memories, in the same process: the
 * shell and the projects list do not need the vault's index, so the two should be close.
 */
const RUNS = 3;

export interface Fixture {
  appData: string;
  vaultRoot: string;
}

/** An app data folder whose vault has one opened project with `memories` memory files; made once. */
export async function coldStartFixture(memories: number): Promise<Fixture> {
  const appData = benchDir(`cold-start-${memories}-v1`);
  const vaultRoot = path.join(appData, 'vault');
  if (existsSync(path.join(appData, '.generated'))) return { appData, vaultRoot };
  await fs.rm(appData, { recursive: true, force: true });
  const project = path.join(appData, 'work', 'billing');
  await fs.mkdir(project, { recursive: true });
  const services = await createServices({ appDataDir: appData, vaultRoot, shell: 'cli', logger: silentLogger, env: {} });
  try {
    const vault = services.vault();
    await vault.ready;
    const opened = await vault.projects.open(project);
    const memoryDir = (await vault.sessions.paths(opened.path)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    for (const { relPath, text } of generateMemoryTexts(memories)) await fs.writeFile(path.join(memoryDir, relPath), text);
  } finally {
    await services.close();
  }
  await fs.writeFile(path.join(appData, '.generated'), new Date().toISOString());
  return { appData, vaultRoot };
}

interface Run {
  /** Services created and the host listening. */
  listening: number;
  /** The page's socket open. */
  connected: number;
  /** The projects list on screen. */
  projects: number;
  /** The welcome screen was shown at some point (it must never be, for a vault with a project). */
  sawWelcome: boolean;
}

async function run(browser: Browser, { appData, vaultRoot }: Fixture): Promise<Run> {
  await fs.rm(path.join(vaultRoot, '.strata', 'cache'), { recursive: true, force: true });
  const started = performance.now();
  const services = await createServices({ appDataDir: appData, vaultRoot, shell: 'host', logger: silentLogger, env: {} });
  const host = await hostFor(services);
  const listening = performance.now() - started;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    let connected = 0;
    page.on('websocket', () => (connected ||= performance.now() - started));
    // Page code as text (the bench's TypeScript has no DOM): notes whether the welcome screen ever showed.
    await page.addInitScript(`new MutationObserver(() => {
      if (document.getElementById('welcome-heading')) window.sawWelcome = true;
    }).observe(document, { subtree: true, childList: true });`);
    await page.goto(host.url);
    await page.locator('.project-item').first().waitFor({ timeout: 120_000 });
    const projects = performance.now() - started;
    const sawWelcome = (await page.evaluate('window.sawWelcome === true')) as boolean;
    // The run ends once the vault is searchable, so the next one starts from a quiet process.
    await services.vault().ready;
    return { listening, connected, projects, sawWelcome };
  } finally {
    await page.close();
    await host.close();
    await services.close();
  }
}

const bench: Bench = {
  name: 'app-cold-start',
  async run() {
    const why = missing();
    if (why) return { skipped: why };
    const [big, empty] = [await coldStartFixture(10_000), await coldStartFixture(0)];
    const browser = await launchChromium();
    try {
      const bigRuns: Run[] = [];
      const emptyRuns: Run[] = [];
      for (let i = 0; i < RUNS; i++) {
        emptyRuns.push(await run(browser, empty));
        bigRuns.push(await run(browser, big));
      }
      const m = (runs: Run[], key: 'listening' | 'connected' | 'projects') => Math.round(median(runs.map((r) => r[key])));
      return [
        line('app-cold-start', 'start-to-projects-list-10000', 'ms', m(bigRuns, 'projects'), m(emptyRuns, 'projects'), {
          memories: 10_000,
          baselineIs: 'the same project with no memories',
          listening: m(bigRuns, 'listening'),
          connected: m(bigRuns, 'connected'),
          welcomeShown: bigRuns.filter((r) => r.sawWelcome).length,
        }),
      ];
    } finally {
      await browser.close();
    }
  },
};
export default bench;
