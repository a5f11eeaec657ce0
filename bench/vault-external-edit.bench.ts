import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { line, median, type Bench } from './harness.js';
import { generatedVault } from './vault-fixture.js';
import { createServices } from '../main/core/services.js';
import { createDispatcher } from '../main/core/ipc/dispatcher.js';
import { createHandlers } from '../main/core/ipc/handlers.js';
import { startHost } from '../main/host/host-server.js';
import { silentLogger } from '../main/core/ports.js';

const RUNS = 20;

interface ChangeFrame {
  event?: string;
  payload?: { path: string; external?: boolean }[];
}

/**
 * docs/memory.md#vault-upkeep: a file written on disk by another program → the `vault:did-change-files` event reaching a
 * client of `strata host` over its WebSocket, ms (median of 20; awaitWriteFinish included). The
 * baseline is the same write seen by a bare `fs.watch` on the file: the floor any watcher pays.
 */
const bench: Bench = {
  name: 'vault-external-edit',
  async run() {
    const root = await generatedVault();
    const appDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-edit-'));
    const services = await createServices({ appDataDir, vaultRoot: root, shell: 'host', logger: silentLogger });
    await services.vault().ready;
    await services.vault().files.whenWatching();
    const rendererDir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-renderer-'));
    await fs.writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Strata</title>');
    const host = await startHost({
      rendererDir,
      dispatch: createDispatcher(createHandlers(services, 'host'), silentLogger),
      events: services.events,
      logger: silentLogger,
    });
    const origin = `http://127.0.0.1:${host.port}`;
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, { origin });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });

    const times: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const rel = `projects/-home-user-project-${i}/memory/note-${i}.md`;
      const file = path.join(root, ...rel.split('/'));
      const original = await fs.readFile(file, 'utf8');
      const seen = new Promise<number>((resolve) => {
        const onMessage = (data: WebSocket.RawData) => {
          const frame = JSON.parse(data.toString()) as ChangeFrame;
          if (frame.event === 'vault:did-change-files' && frame.payload?.some((c) => c.path === rel && c.external)) {
            ws.off('message', onMessage);
            resolve(performance.now());
          }
        };
        ws.on('message', onMessage);
      });
      const watcher = (async () => {
        const abort = new AbortController();
        for await (const _ of fs.watch(file, { signal: abort.signal })) {
          abort.abort();
          return performance.now();
        }
        return performance.now();
      })().catch(() => performance.now());
      const started = performance.now();
      await fs.writeFile(file, `${original}\nedited ${i}\n`);
      floor.push((await watcher) - started);
      times.push((await seen) - started);
      await fs.writeFile(file, original);
      // Let the restore's own event pass before the next run starts listening.
      await new Promise((r) => setTimeout(r, 400));
    }
    ws.close();
    await host.close();
    await services.close();
    await fs.rm(appDataDir, { recursive: true, force: true });
    await fs.rm(rendererDir, { recursive: true, force: true });
    return [line('vault-external-edit', 'disk-to-host-client', 'ms', median(times), median(floor), { runs: RUNS, baselineTool: 'fs.watch' })];
  },
};
export default bench;
