import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES, startHost, type RunningHost } from '../../../main/host/host-server.js';
import { createServices, type Services } from '../../../main/core/services.js';
import { createDispatcher } from '../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../main/core/ipc/handlers.js';
import { tempDir } from '../../support/temp-dir.js';
import { testLogger } from '../../support/test-logger.js';

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

/** A client frame with the mask RFC 6455 §5.3 requires (unless `masked` is false). */
function frame(first: number, payload: Buffer, opts: { masked?: boolean; announce?: number } = {}): Buffer {
  const masked = opts.masked ?? true;
  const length = opts.announce ?? payload.length;
  const header =
    length < 126
      ? Buffer.from([first, (masked ? 0x80 : 0) | length])
      : Buffer.concat([Buffer.from([first, (masked ? 0x80 : 0) | 127]), (() => {
          const b = Buffer.alloc(8);
          b.writeBigUInt64BE(BigInt(length));
          return b;
        })()]);
  if (!masked) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]!));
  return Buffer.concat([header, key, body]);
}

/** Opens /ipc by hand, sends `bytes`, and resolves with the close code of the server's close frame. */
async function sendRaw(h: RunningHost, bytes: Buffer): Promise<number> {
  const socket = net.connect(h.port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      `GET /ipc?token=${h.token} HTTP/1.1`,
      `Host: 127.0.0.1:${h.port}`,
      `Origin: http://127.0.0.1:${h.port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  let received = Buffer.alloc(0);
  let sent = false;
  return new Promise<number>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!sent) {
        if (!received.subarray(0, end).toString().startsWith('HTTP/1.1 101')) return reject(new Error(received.toString()));
        sent = true;
        socket.write(bytes);
      }
      const rest = received.subarray(end + 4);
      // The server's close frame: 0x88, an unmasked length, then the 2-byte code.
      if (rest.length >= 4) {
        expect(rest[0]).toBe(0x88);
        resolve(rest.readUInt16BE(2));
        socket.destroy();
      }
    });
    socket.once('close', () => reject(new Error('closed without a close frame')));
  });
}

const TEXT = 0x81;
const malformed: [string, () => Buffer, number][] = [
  ['a header announcing 33 MiB', () => frame(TEXT, Buffer.alloc(0), { announce: MAX_FRAME_BYTES + 1024 * 1024 }), 1009],
  ['invalid UTF-8 in a text frame', () => frame(TEXT, Buffer.from([0x68, 0xff, 0xfe])), 1007],
  ['an unmasked client frame', () => frame(TEXT, Buffer.from('{}'), { masked: false }), 1002],
  ['RSV1 set without an extension', () => frame(TEXT | 0x40, Buffer.from('{}')), 1002],
  ['opcode 3 (reserved)', () => frame(0x83, Buffer.from('{}')), 1002],
  ['close code 999', () => frame(0x88, Buffer.from([0x03, 0xe7])), 1002],
];

describe('strata host against malformed WebSocket frames', () => {
  it.each(malformed)('%s: closes that connection with the right code, logs one line, other tabs carry on', async (_label, bytes, code) => {
    const { host, log } = await start();
    const bystander = await tab(host);

    expect(await sendRaw(host, bytes())).toBe(code);

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
