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

describe('the background consolidation check', () => {
  it('after a conversation changes and the gates pass, proposes a changeset (and tells the renderer); the next change starts no second pass', async () => {
    const log = testLogger();
    const appData = await tempDir('strata-consolidate-app-');
    const project = await tempDir('strata-consolidate-proj-');
    services = await createServices({ appDataDir: appData, shell: 'host', logger: log.logger, env: { ANTHROPIC_API_KEY: 'sk-test' } });
    const vault = services.vault();
    await vault.ready;
    fake = await startFakeAnthropic({ strict: true });
    await vault.settings.update({ baseUrl: fake.url, model: 'claude-test' });
    const opened = (await vault.projects.open(project)).path;
    const paths = await ProjectPaths.resolve(vault.root, opened);
    await fs.mkdir(paths.memoryDir, { recursive: true });
    await fs.writeFile(path.join(paths.memoryDir, 'user_city.md'), memoryText('City', 'where the user lives', 'Lives in Lisbon.', 'user'));
    await fs.writeFile(path.join(paths.memoryDir, 'user_city_new.md'), memoryText('New city', 'the move', 'Moved to Porto.', 'user'));
    await fs.mkdir(paths.transcriptsDir, { recursive: true });
    for (let i = 0; i < 5; i++) await fs.writeFile(path.join(paths.transcriptsDir, `s${i}.jsonl`), '{}\n');
    const real = await fs.realpath(paths.memoryDir);
    fake.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: path.join(real, 'user_city.md') } }]),
      toolCalls([{ name: 'Delete', input: { file_path: path.join(real, 'user_city.md') } }]),
      text('- user_city.md: contradicted by user_city_new.md'),
    );

    const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
    const told = new Promise<ConsolidationChangeset | null>((resolve) => {
      services!.events.subscribe((channel, payload) => {
        if (channel === 'memory:did-change-consolidation') resolve((payload as { changeset: ConsolidationChangeset | null }).changeset);
      });
    });
    await services.vault().sessions.announce(opened);
    const changeset = await told;
    expect(changeset!.items.map((i) => [i.path.split('/').pop(), i.action, i.reason])).toEqual([['user_city.md', 'deleted', 'contradicted by user_city_new.md']]);
    expect(await fs.readFile(path.join(real, 'user_city.md'), 'utf8')).toContain('Lisbon');
    const got = await dispatch('memory:consolidation-get', { project: opened });
    expect(got).toMatchObject({ ok: true, value: { id: changeset!.id } });

    await services.vault().sessions.announce(opened);
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.requests).toHaveLength(3);
    log.assertNoErrors();
  });
});
