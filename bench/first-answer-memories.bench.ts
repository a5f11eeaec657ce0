import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createServices } from '../main/core/services.js';
import { silentLogger } from '../main/core/ports.js';
import { startFakeAnthropic, text, type FakeAnthropic, type WireRequest } from '../test/fakes/anthropic-server/index.js';
import { prepareChat, TEST_API_KEY } from '../test/e2e/support/chat-app.js';
import { coldStartFixture, type Fixture } from './app-cold-start.bench.js';
import { line, median, type Bench } from './harness.js';

/**
 * first-answer-memories (docs/memory.md#recall "Reading the folder"): the first answer of a new
 * conversation in a project with 10,000 memories, from send to the first streamed token, through the
 * real chat engine, recall's model path and the fake Messages API, right after a cold start (search cache
 * removed). Three moments: the vault still opening (the turn is sent as the app starts, and timed from
 * there), just searchable, and watching (the catalog live, as a few seconds after the start). The baseline is the same project with no memories, in the same process; the overhead is
 * the difference.
 */
const RUNS = 3;
const isSelector = (r: WireRequest) => JSON.stringify(r.system ?? '').includes('You pick memory files');

type Moment = 'opening' | 'ready' | 'watching';
const METRIC: Record<Moment, string> = { opening: 'vault-opening', ready: 'vault-ready', watching: 'vault-watching' };

async function firstAnswer(fixture: Fixture, fake: FakeAnthropic, when: Moment): Promise<number> {
  await fs.rm(path.join(fixture.vaultRoot, '.strata', 'cache'), { recursive: true, force: true });
  const started = performance.now();
  const services = await createServices({ appDataDir: fixture.appData, vaultRoot: fixture.vaultRoot, shell: 'host', logger: silentLogger, env: { ANTHROPIC_API_KEY: TEST_API_KEY } });
  try {
    const vault = services.vault();
    const project = vault.projects.list()[0]!.path;
    if (when !== 'opening') await vault.ready;
    if (when === 'watching') await vault.files.whenWatching();
    const sent = when === 'opening' ? started : performance.now();
    const { sessionId } = await vault.sessions.create(project);
    const first = new Promise<number>((resolve) => {
      const off = vault.chat.onDidStream((delta) => {
        if (delta.sessionId !== sessionId) return;
        off();
        resolve(performance.now() - sent);
      });
    });
    await vault.chat.session(project, sessionId).send('How do we roll back a canary deploy?');
    const ms = await first;
    await vault.chat.session(project, sessionId).idle();
    await vault.ready;
    return ms;
  } finally {
    await services.close();
  }
}

const bench: Bench = {
  name: 'first-answer-memories',
  async run() {
    const [big, none] = [await coldStartFixture(10_000), await coldStartFixture(0)];
    const fake = await startFakeAnthropic({ strict: true, respond: (r) => (isSelector(r) ? text('{"selected_memories": []}') : text('Roll back with the deploy tool.')) });
    try {
      for (const f of [big, none]) {
        const services = await createServices({ appDataDir: f.appData, vaultRoot: f.vaultRoot, shell: 'cli', logger: silentLogger, env: {} });
        await prepareChat(services, { project: services.vault().projects.list()[0]!.path, baseUrl: fake.url });
        await services.close();
      }
      const out = [];
      for (const when of ['opening', 'ready', 'watching'] as const) {
        const bigRuns: number[] = [];
        const noneRuns: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          noneRuns.push(await firstAnswer(none, fake, when));
          bigRuns.push(await firstAnswer(big, fake, when));
        }
        const value = median(bigRuns);
        const baseline = median(noneRuns);
        out.push(
          line('first-answer-memories', `send-to-first-token-10000-${METRIC[when]}`, 'ms', value, baseline, {
            memories: 10_000,
            overheadMs: Math.round(value - baseline),
            baselineIs: 'the same project with no memories',
          }),
        );
      }
      return out;
    } finally {
      await fake.close();
    }
  },
};
export default bench;
