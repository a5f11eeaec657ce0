import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { ProjectPaths } from '../../../../main/core/paths/project-paths.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';
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

describe('the background consolidation check while memory is paused (docs/memory.md#pause-and-incognito)', () => {
  it('runs no pass however many conversations changed; "Tidy memory now" still does', async () => {
    const log = testLogger();
    const appData = await tempDir('strata-consolidate-app-');
    const project = await tempDir('strata-consolidate-proj-');
    services = await createServices({ appDataDir: appData, shell: 'host', logger: log.logger, env: { ANTHROPIC_API_KEY: 'sk-test' } });
    const vault = services.vault();
    await vault.ready;
    fake = await startFakeAnthropic({ strict: true });
    await vault.settings.update({ baseUrl: fake.url, model: 'claude-test' });
    const opened = (await vault.projects.open(project)).path;
    await vault.settings.update({ projects: { [opened]: { ...vault.settings.get().projects[opened]!, memoryPaused: true } } });
    const paths = await ProjectPaths.resolve(vault.root, opened);
    await fs.mkdir(paths.memoryDir, { recursive: true });
    await fs.writeFile(path.join(paths.memoryDir, 'user_city.md'), memoryText('City', 'where the user lives', 'Lives in Lisbon.', 'user'));
    await fs.writeFile(path.join(paths.memoryDir, 'user_city_new.md'), memoryText('New city', 'the move', 'Moved to Porto.', 'user'));
    await fs.mkdir(paths.transcriptsDir, { recursive: true });
    for (let i = 0; i < 5; i++) await fs.writeFile(path.join(paths.transcriptsDir, `s${i}.jsonl`), '{}\n');
    fake.enqueue(text('- nothing to change'));

    services.events.emit('chat:did-change-sessions', { project: opened, sessions: [] });
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.requests).toHaveLength(0);

    const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
    await dispatch('memory:consolidation-run', { project: opened });
    expect(fake.requests).toHaveLength(1);
    log.assertNoErrors();
  });
});
