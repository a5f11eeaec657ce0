import http from 'node:http';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { line, median, type Bench } from './harness.js';
import { createServices } from '../main/core/services.js';
import { createDispatcher } from '../main/core/ipc/dispatcher.js';
import { createHandlers } from '../main/core/ipc/handlers.js';
import { startHost } from '../main/host/host-server.js';
import { silentLogger } from '../main/core/ports.js';

const rendererDir = path.resolve('dist/renderer');
const RUNS = 15;

/** Host start (services + server) to the first page and its assets served, in ms. */
async function hostRun(appDataDir: string): Promise<number> {
  const started = performance.now();
  const services = await createServices({ appDataDir, shell: 'host', logger: silentLogger });
  const host = await startHost({
    rendererDir,
    dispatch: createDispatcher(createHandlers(services, 'host'), silentLogger),
    events: services.events,
    logger: silentLogger,
  });
  await fetchPage(host.url, `http://127.0.0.1:${host.port}`);
  const elapsed = performance.now() - started;
  await host.close();
  return elapsed;
}

/** Baseline: a plain static file server over the same folder, started and asked the same way. */
async function staticRun(): Promise<number> {
  const started = performance.now();
  const server = http.createServer((req, res) => {
    const rel = req.url === '/' || req.url?.startsWith('/?') ? 'index.html' : (req.url ?? '').slice(1);
    fs.readFile(path.join(rendererDir, rel)).then(
      (body) => res.end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await fetchPage(`${origin}/`, origin);
  const elapsed = performance.now() - started;
  await new Promise((resolve) => server.close(resolve));
  return elapsed;
}

async function fetchPage(url: string, origin: string): Promise<void> {
  const html = await (await fetch(url)).text();
  const assets = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((m) => m[1]!);
  await Promise.all(assets.map(async (a) => (await fetch(`${origin}/${a}`)).arrayBuffer()));
}

const bench: Bench = {
  name: 'host-first-page',
  async run() {
    if (!existsSync(path.join(rendererDir, 'index.html'))) return { skipped: 'the renderer is not built (npm run build)' };
    const appData = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-host-'));
    const hostTimes: number[] = [];
    const staticTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      staticTimes.push(await staticRun());
      hostTimes.push(await hostRun(appData));
    }
    await fs.rm(appData, { recursive: true, force: true });
    return [line('host-first-page', 'start-to-first-page', 'ms', median(hostTimes), median(staticTimes))];
  },
};
export default bench;
