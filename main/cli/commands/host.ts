import path from 'node:path';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createDispatcher } from '../../core/ipc/index.js';
import { createHandlers } from '../../core/ipc/index.js';
import { startHost } from '../../host/host-server.js';
import { packageRoot, UsageError, type Command } from '../cli-io.js';
import { cliServices } from '../cli-services.js';
import { parseOptions, vaultAndJson, wholeNumber } from '../options.js';

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  spawn(cmd, args, { stdio: 'ignore', detached: true }).on('error', () => undefined).unref();
}

export const hostCommand: Command = {
  name: 'host',
  summary: 'serve the app to a browser tab on 127.0.0.1',
  usage: 'strata host [--vault DIR] [--port N] [--open] [--json]',
  async run(argv, io) {
    const { values } = parseOptions(argv, { port: { type: 'string', default: '0' }, open: { type: 'boolean', default: false }, ...vaultAndJson });
    const port = wholeNumber(values.port, '--port', 0, 65535) ?? 0;
    const rendererDir = io.env.STRATA_RENDERER_DIR ?? path.join(packageRoot(), 'dist', 'renderer');
    if (!existsSync(path.join(rendererDir, 'index.html'))) {
      throw new UsageError(`the app is not built (${rendererDir} has no index.html): run npm run build`);
    }
    const services = await cliServices(io, values.vault, 'host');
    const host = await startHost({
      rendererDir,
      dispatch: createDispatcher(createHandlers(services, 'host'), services.config.logger),
      events: services.events,
      logger: services.config.logger,
      port,
    });
    io.stdout(values.json ? JSON.stringify({ url: host.url, port: host.port, token: host.token }) : host.url);
    if (values.open) openInBrowser(host.url);
    await io.stopped;
    await host.close();
    await services.close();
    return 0;
  },
};
