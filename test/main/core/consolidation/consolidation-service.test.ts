import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsolidationChangeset } from '../../../../common/domain/consolidation.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { ProjectPaths } from '../../../../main/core/paths/project-paths.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { memoryText } from '../vault/vault-helpers.js';

let fake: FakeAnthropic | null = null;
let services: Services | null = null;
afterEach(async () => {
  await services?.close();
  await fake?.close();
  services = null;
  fake = null;
});

/** A vault with one opened project holding two contradicting memories and five conversations: the gates pass. */
async function projectWithContradiction(switches: Record<string, boolean> = {}) {
  const log = testLogger();
  const appData = await tempDir('strata-consolidate-app-');
  const project = await tempDir('strata-consolidate-proj-');
  const started = await createServices({ appDataDir: appData, shell: 'host', logger: log.logger, env: { ANTHROPIC_API_KEY: 'sk-test' } });
  services = started;
  const vault = started.vault();
  await vault.ready;
  const api = await startFakeAnthropic({ strict: true });
  fake = api;
  await vault.settings.update({ baseUrl: api.url, model: 'claude-test' });
  const opened = (await vault.projects.open(project)).path;
  await vault.settings.update({ projects: { [opened]: { ...vault.settings.get().projects[opened]!, ...switches } } });
  const paths = await ProjectPaths.resolve(vault.root, opened);
  await fs.mkdir(paths.memoryDir, { recursive: true });
  await fs.writeFile(path.join(paths.memoryDir, 'user_city.md'), memoryText('City', 'where the user lives', 'Lives in Lisbon.', 'user'));
  await fs.writeFile(path.join(paths.memoryDir, 'user_city_new.md'), memoryText('New city', 'the move', 'Moved to Porto.', 'user'));
  await fs.mkdir(paths.transcriptsDir, { recursive: true });
  for (let i = 0; i < 5; i++) await fs.writeFile(path.join(paths.transcriptsDir, `s${i}.jsonl`), '{}\n');
  return { log, opened, paths, fake: api, services: started };
}

describe('the background consolidation check', () => {
  it('after a conversation changes and the gates pass, proposes a changeset (and tells the renderer); the next change starts no second pass', async () => {
    const { log, opened, paths, fake, services: app } = await projectWithContradiction();
    const real = await fs.realpath(paths.memoryDir);
    fake.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: path.join(real, 'user_city.md') } }]),
      toolCalls([{ name: 'Delete', input: { file_path: path.join(real, 'user_city.md') } }]),
      text('- user_city.md: contradicted by user_city_new.md'),
    );

    const dispatch = createDispatcher(createHandlers(app, 'host'), log.logger);
    const told = new Promise<ConsolidationChangeset | null>((resolve) => {
      app.events.subscribe((channel, payload) => {
        if (channel === 'memory:did-change-consolidation') resolve((payload as { changeset: ConsolidationChangeset | null }).changeset);
      });
    });
    await app.vault().sessions.announce(opened);
    const changeset = await told;
    expect(changeset!.items.map((i) => [i.path.split('/').pop(), i.action, i.reason])).toEqual([['user_city.md', 'deleted', 'contradicted by user_city_new.md']]);
    expect(await fs.readFile(path.join(real, 'user_city.md'), 'utf8')).toContain('Lisbon');
    const got = await dispatch('memory:consolidation-get', { project: opened });
    expect(got).toMatchObject({ ok: true, value: { id: changeset!.id } });

    await app.vault().sessions.announce(opened);
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.requests).toHaveLength(3);
    log.assertNoErrors();
  });

  it('runs no pass while memory is paused, however many conversations changed; "Tidy memory now" still does (docs/memory.md#pause-and-incognito)', async () => {
    const { log, opened, fake, services: s } = await projectWithContradiction({ memoryPaused: true });
    fake.enqueue(text('- nothing to change'));
    s.events.emit('chat:did-change-sessions', { project: opened, sessions: [] });
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.requests).toHaveLength(0);
    const dispatch = createDispatcher(createHandlers(s, 'host'), log.logger);
    await dispatch('memory:consolidation-run', { project: opened });
    expect(fake.requests).toHaveLength(1);
    log.assertNoErrors();
  });

  it('answers an Accept all with one stale item with how many were applied and which one was left, and tells the Inbox what landed', async () => {
    const { log, opened, paths, fake, services: app } = await projectWithContradiction();
    const real = await fs.realpath(paths.memoryDir);
    const moved = memoryText('New city', 'the move', 'Moved to Porto in November 2026.', 'user');
    fake.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: path.join(real, 'user_city.md') } }, { name: 'Read', input: { file_path: path.join(real, 'user_city_new.md') } }]),
      toolCalls([{ name: 'Delete', input: { file_path: path.join(real, 'user_city.md') } }, { name: 'Write', input: { file_path: path.join(real, 'user_city_new.md'), content: moved } }]),
      text('- user_city.md: contradicted\n- user_city_new.md: dated the move'),
    );
    const dispatch = createDispatcher(createHandlers(app, 'host'), log.logger);
    const run = await dispatch('memory:consolidation-run', { project: opened });
    const changeset = run.ok ? (run.value as { changeset: ConsolidationChangeset | null }).changeset : null;
    expect(changeset!.items).toHaveLength(2);
    const told: (ConsolidationChangeset | null)[] = [];
    app.events.subscribe((channel, payload) => {
      if (channel === 'memory:did-change-consolidation') told.push((payload as { changeset: ConsolidationChangeset | null }).changeset);
    });
    await fs.writeFile(path.join(real, 'user_city_new.md'), memoryText('New city', 'the move', 'Moved to Porto; the user edited this.', 'user'));

    const answer = await dispatch('memory:consolidation-resolve', { project: opened, id: changeset!.id, accept: changeset!.items.map((i) => i.id), reject: [] });
    expect(answer).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(answer.ok ? '' : answer.error.message).toMatch(/^1 change applied\. Changed since the tidy-up was proposed, so left as they are: \S*\/user_city_new\.md\./);
    expect(told.at(-1)!.items.map((i) => [i.path.split('/').pop(), i.status])).toEqual([['user_city.md', 'applied'], ['user_city_new.md', 'pending']]);
    await expect(fs.stat(path.join(real, 'user_city.md'))).rejects.toThrow();
    log.assertNoErrors();
  });
});
