import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES, startHost, type RunningHost } from '../../../main/host/host-server.js';
import { createServices, type Services } from '../../../main/core/services.js';
import { createDispatcher } from '../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../main/core/ipc/handlers.js';
import { tempDir } from '../../support/temp-dir.js';
import { testLogger } from '../../support/test-logger.js';
import { malformedFrames, sendRaw } from '../../support/raw-websocket.js';

let host: RunningHost | null = null;
let services: Services | null = null;
afterEach(async () => {
  await host?.close();
  await services?.close();
  host = null;
  services = null;
});

async function start() {
  const rendererDir = await tempDir();
  await fs.writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Strata</title>');
  const log = testLogger();
  services = await createServices({ appDataDir: await tempDir(), shell: 'host', logger: log.logger });
  host = await startHost({
    rendererDir,
    dispatch: createDispatcher(createHandlers(services, 'host'), log.logger),
    events: services.events,
    logger: log.logger,
  });
  return { host, log };
}

/** A tab as the ws library speaks it: opens, answers requests. */
async function tab(h: RunningHost) {
  const ws = new WebSocket(`ws://127.0.0.1:${h.port}/ipc?token=${h.token}`, { origin: `http://127.0.0.1:${h.port}` });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let next = 0;
  return {
    ws,
    request(channel: string, payload: unknown = {}) {
      const id = ++next;
      return new Promise<unknown>((resolve) => {
        const onMessage = (d: WebSocket.RawData) => {
          const m = JSON.parse(d.toString()) as { id?: number };
          if (m.id !== id) return;
          ws.off('message', onMessage);
          resolve(m);
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ id, channel, payload }));
      });
    },
  };
}

describe('strata host against malformed WebSocket frames', () => {
  it.each(malformedFrames(MAX_FRAME_BYTES))('%s: closes that connection with the right code, logs one line, other tabs carry on', async (_label, bytes, code) => {
    const { host, log } = await start();
    const bystander = await tab(host);

    expect(await sendRaw(host.port, host.token, bytes())).toBe(code);

    const warnings = log.entries.filter((e) => e.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/malformed WebSocket frame/);
    log.assertNoErrors();

    // A second client opened afterwards is served, and the tab that was open all along still is.
    const second = await tab(host);
    expect(await second.request('app:info')).toMatchObject({ result: { ok: true, value: { shell: 'host' } } });
    expect(await bystander.request('app:info')).toMatchObject({ result: { ok: true } });
    second.ws.close();
    bystander.ws.close();
  });

  it('still answers a large message under the limit (a big paste)', async () => {
    const { host } = await start();
    const t = await tab(host);
    expect(await t.request('app:info', { pad: 'x'.repeat(8 * 1024 * 1024) })).toMatchObject({ id: 1 });
    t.ws.close();
  });
});
