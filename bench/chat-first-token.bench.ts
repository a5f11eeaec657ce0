import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { Page } from 'playwright-core';
import { createServices } from '../main/core/services.js';
import { silentLogger } from '../main/core/ports.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../test/fakes/anthropic-server/index.js';
import { hasChromium, launchChromium } from '../test/e2e/support/chromium.js';
import { prepareChat, TEST_API_KEY } from '../test/e2e/support/chat-app.js';
import { line, median, percentile, type Bench } from './harness.js';
import { hostFor } from './vault-ui-support.js';

const rendererDir = path.resolve('dist/renderer');
const WARMUP = 2;
const RUNS = 15;
/** The fake server's scripted wait before the first byte; subtracted from both measurements. */
const FIRST_BYTE_DELAY_MS = 50;
const ANSWER = 'The first token shows here, then the rest of the answer streams in behind it.';
const script = () => text(ANSWER, { firstByteDelayMs: FIRST_BYTE_DELAY_MS, chunkChars: 8 });

interface Probe {
  sentAt: number | null;
  shownAt: number | null;
}

/**
 * In the page (a string: this file compiles without the DOM library): the time of the click on Send
 * (capture phase, before React handles it) and the start of the first frame that paints the answer's
 * first text (the DOM mutation, then the next animation frame).
 */
const ARM_PROBE = `(() => {
  const probe = { sentAt: null, shownAt: null };
  window.probe = probe;
  document.addEventListener('click', (e) => {
    const button = e.target && e.target.closest ? e.target.closest('button') : null;
    if (probe.sentAt === null && button && button.textContent.trim() === 'Send') probe.sentAt = performance.now();
  }, true);
  const observer = new MutationObserver(() => {
    if (probe.sentAt === null) return;
    const answer = document.querySelector('[role="log"] article[aria-label="Strata"]');
    if (!answer || !answer.textContent) return;
    observer.disconnect();
    requestAnimationFrame((frameTime) => { probe.shownAt = frameTime; });
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** One prompt in a new conversation: ms from the click on Send to the first token painted. */
async function uiRun(page: Page, fake: FakeAnthropic, n: number): Promise<number> {
  await page.getByRole('region', { name: 'Conversations' }).getByRole('button', { name: /^New conversation/ }).click();
  await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();
  await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
  await page.getByLabel('Message', { exact: true }).fill(`Question ${n}: what happens first?`);
  fake.enqueue(script());
  await page.evaluate(ARM_PROBE);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForFunction(() => (globalThis as unknown as { probe: Probe }).probe.shownAt !== null);
  const probe = await page.evaluate(() => (globalThis as unknown as { probe: Probe }).probe);
  // The turn ends before the next one starts.
  await page.getByRole('log', { name: 'Conversation' }).getByText(ANSWER).waitFor();
  await page.getByRole('button', { name: 'Send', exact: true }).waitFor();
  return probe.shownAt! - probe.sentAt!;
}

/**
 * Baseline: the same request body Strata sent (system prompt, tools, context reminder, prompt), streamed
 * with the raw SDK against the same fake: ms from the call to the first text delta.
 */
async function sdkRun(fake: FakeAnthropic, body: Record<string, unknown>, betas: string | null): Promise<number> {
  const client = new Anthropic({ apiKey: TEST_API_KEY, baseURL: fake.url, maxRetries: 0 });
  fake.enqueue(script());
  const started = performance.now();
  let first: number | null = null;
  const stream = client.messages.stream(body as unknown as Anthropic.MessageStreamParams, betas ? { headers: { 'anthropic-beta': betas } } : {});
  stream.on('text', () => {
    first ??= performance.now();
  });
  await stream.finalMessage();
  if (first === null) throw new Error('the baseline stream had no text');
  return first - started;
}

/**
 * chat-first-token (docs/architecture.md#the-agent): ms from sending a prompt in the UI (Chromium via `strata host`) to its
 * first streamed token painted, minus the fake server's scripted first-byte delay, against the raw SDK
 * streaming the same request from the same fake (median of 15 after 2 warm-ups each).
 */
const bench: Bench = {
  name: 'chat-first-token',
  async run() {
    if (!hasChromium) return { skipped: 'Chromium is not installed (scripts/install-system-deps.sh)' };
    if (!existsSync(path.join(rendererDir, 'index.html'))) return { skipped: 'the renderer is not built (npm run build)' };
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-first-token-')));
    const fake = await startFakeAnthropic({ strict: true });
    const services = await createServices({
      appDataDir: path.join(root, 'app-data'),
      shell: 'host',
      logger: silentLogger,
      env: { ANTHROPIC_API_KEY: TEST_API_KEY },
    });
    const host = await hostFor(services);
    const browser = await launchChromium();
    try {
      await prepareChat(services, { project: path.join(root, 'site'), baseUrl: fake.url });
      const page = await (await browser.newContext({ viewport: { width: 1200, height: 780 } })).newPage();
      await page.goto(host.url);
      await page.getByRole('region', { name: 'Projects' }).getByRole('button', { name: 'site', exact: true }).click();
      await page.getByRole('heading', { name: 'New conversation', level: 1 }).waitFor();

      const ui: number[] = [];
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const ms = await uiRun(page, fake, i);
        if (i >= WARMUP) ui.push(ms - FIRST_BYTE_DELAY_MS);
      }
      const rejected = fake.requests.filter((r) => r.rejected !== null);
      if (rejected.length > 0 || fake.requests.length !== WARMUP + RUNS) {
        throw new Error(`expected ${WARMUP + RUNS} accepted requests, got ${fake.requests.length} (${rejected.length} rejected)`);
      }
      const sent = fake.requests.at(-1)!;
      const { stream: _stream, ...body } = sent.body as unknown as Record<string, unknown>;
      // Strata's beta features (context editing) ride on this header: the baseline sends it too.
      const betas = sent.headers['anthropic-beta'];

      const sdk: number[] = [];
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const ms = await sdkRun(fake, body, typeof betas === 'string' ? betas : null);
        if (i >= WARMUP) sdk.push(ms - FIRST_BYTE_DELAY_MS);
      }
      return [
        line('chat-first-token', 'send-to-first-token-shown', 'ms', median(ui), median(sdk), {
          p90: Math.round(percentile(ui, 90) * 10) / 10,
          runs: RUNS,
          firstByteDelayMs: FIRST_BYTE_DELAY_MS,
          requestBytes: JSON.stringify(body).length,
          baselineMethod: 'raw SDK stream of the same request from the same fake, to the first text delta',
        }),
      ];
    } finally {
      await browser.close();
      await host.close();
      await services.close();
      await fake.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
export default bench;
