import path from 'node:path';
import { afterEach } from 'vitest';
import type { CredentialStore } from '../../../main/core/ports.js';
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

/** What a test may give the services besides the app data folder (all optional). */
export interface StartAppOptions {
  /** The home folder the folder chooser starts in. */
  homeDir?: string;
  /** The services' environment (e.g. `ANTHROPIC_API_KEY`); empty by default, never the test's own. */
  env?: NodeJS.ProcessEnv;
  /** The credential store; an empty in-memory one by default. */
  credentials?: CredentialStore;
}

/**
 * `strata host` in-process on a temp app data folder: the same engines and transport as the CLI.
 * The second argument is the home folder (as a string) or options.
 */
export async function startApp(appDataDir: string, homeDirOrOptions?: string | StartAppOptions): Promise<TestApp> {
  const options: StartAppOptions = typeof homeDirOrOptions === 'string' ? { homeDir: homeDirOrOptions } : (homeDirOrOptions ?? {});
  const log = testLogger();
  const services = await createServices({
    appDataDir,
    shell: 'host',
    logger: log.logger,
    homeDir: options.homeDir,
    env: options.env ?? {},
    credentials: options.credentials,
  });
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

/**
 * After each test, closes what `current()` holds then, in that order (the app before the fake API it
 * talks to); each thing once, so one a test closed and kept is not closed again.
 */
export function closeAfterEach(current: () => readonly ({ close(): Promise<void> } | null)[]): void {
  const closed = new WeakSet<object>();
  afterEach(async () => {
    for (const thing of current()) {
      if (!thing || closed.has(thing)) continue;
      closed.add(thing);
      await thing.close();
    }
  });
}
