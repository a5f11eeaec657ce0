import path from 'node:path';
import { createServices, type Services } from '../../../main/core/services.js';
import { createDispatcher } from '../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../main/core/ipc/handlers.js';
import { startHost, type RunningHost } from '../../../main/host/host-server.js';
import { testLogger } from '../../support/test-logger.js';

export const rendererDir = path.resolve('dist/renderer');

export interface TestApp {
  host: RunningHost;
  services: Services;
  close(): Promise<void>;
}

/** `strata host` in-process on a temp app data folder: the same engines and transport as the CLI. */
export async function startApp(appDataDir: string, homeDir?: string): Promise<TestApp> {
  const log = testLogger();
  const services = await createServices({ appDataDir, shell: 'host', logger: log.logger, homeDir, env: {} });
  const host = await startHost({
    rendererDir,
    dispatch: createDispatcher(createHandlers(services, 'host'), log.logger),
    events: services.events,
    logger: log.logger,
  });
  return {
    host,
    services,
    async close() {
      await host.close();
      await services.close();
      log.assertNoErrors();
    },
  };
}
