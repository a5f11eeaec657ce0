import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHost, type RunningHost } from '../../../main/host/host-server.js';
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
  await fs.mkdir(path.join(rendererDir, 'assets'));
  await fs.writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  const outside = await tempDir();
  await fs.writeFile(path.join(outside, 'private.txt'), 'private');
  await fs.symlink(path.join(outside, 'private.txt'), path.join(rendererDir, 'assets', 'link.txt'));
  const log = testLogger();
  services = await createServices({ appDataDir: await tempDir(), shell: 'host', logger: log.logger });
  host = await startHost({
    rendererDir,
    dispatch: createDispatcher(createHandlers(services, 'host'), log.logger),
    events: services.events,
    logger: log.logger,
  });
  return { host, services };
}

/** A raw GET so the test controls the Host header exactly (fetch would not let it). */
function get(port: number, pathAndQuery: string, hostHeader = `127.0.0.1:${port}`) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathAndQuery, headers: { host: hostHeader } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(url: string, origin?: string) {
  return new Promise<{ ws?: WebSocket; status?: number }>((resolve) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    ws.once('error', () => undefined);
  });
}

describe('strata host', () => {
  it('prints a URL on 127.0.0.1 with a 32-byte base64url token', async () => {
    const { host } = await start();
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('answers the app HTML with a strict CSP only when the token is right', async () => {
    const { host } = await start();
    const okRes = await get(host.port, `/?token=${host.token}`);
    expect(okRes.status).toBe(200);
    expect(okRes.body).toContain('<title>Strata</title>');
    expect(okRes.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    expect(okRes.headers['content-security-policy']).toContain(`connect-src ws://127.0.0.1:${host.port}`);
    expect((await get(host.port, '/')).status).toBe(403);
    expect((await get(host.port, '/?token=wrong')).status).toBe(403);
  });

  it('answers / without the token with a 403 page that holds nothing of the app and runs only its own script', async () => {
    const { host } = await start();
    for (const at of ['/', '/index.html', '/?token=wrong']) {
      const res = await get(host.port, at);
      expect(res.status).toBe(403);
      expect(res.body).not.toContain('<!doctype html><title>Strata</title>');
      expect(res.body).not.toContain(host.token);
      expect(res.body).toContain('strata.hostToken');
      const csp = res.headers['content-security-policy'] ?? '';
      expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]{44}'/);
      expect(csp).not.toContain("'self'");
      expect(csp).not.toContain('unsafe-inline');
    }
    // A foreign Host still gets the bare 403.
    expect((await get(host.port, '/', 'evil.example')).body).toBe('Forbidden');
  });

  it('serves static assets without the token but only with the exact Host header', async () => {
    const { host } = await start();
    expect((await get(host.port, '/assets/app.js')).status).toBe(200);
    expect((await get(host.port, '/assets/app.js', `localhost:${host.port}`)).status).toBe(403);
    expect((await get(host.port, `/?token=${host.token}`, 'evil.example')).status).toBe(403);
  });

  it('refuses paths that escape the renderer folder, by .. or by symlink', async () => {
    const { host } = await start();
    expect((await get(host.port, '/../../etc/passwd')).status).toBe(403);
    expect((await get(host.port, '/assets/%2e%2e/%2e%2e/etc/passwd')).status).toBe(403);
    expect((await get(host.port, '/assets/link.txt')).status).toBe(403);
    expect((await get(host.port, '/nope.js')).status).toBe(403);
  });

  it('upgrades /ipc with the token and its own Origin, and answers contract frames', async () => {
    const { host } = await start();
    const { ws } = await connect(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, `http://127.0.0.1:${host.port}`);
    expect(ws).toBeDefined();
    const reply = new Promise<unknown>((resolve) => ws!.once('message', (d) => resolve(JSON.parse(d.toString()))));
    ws!.send(JSON.stringify({ id: 1, channel: 'app:info', payload: {} }));
    expect(await reply).toMatchObject({ id: 1, result: { ok: true, value: { shell: 'host' } } });
    ws!.close();
  });

  type Attempt = (port: number, token: string) => [string, string | undefined];
  const attempts: [string, Attempt][] = [
    ['no token', (p) => [`ws://127.0.0.1:${p}/ipc`, `http://127.0.0.1:${p}`]],
    ['a wrong token', (p) => [`ws://127.0.0.1:${p}/ipc?token=x`, `http://127.0.0.1:${p}`]],
    ['a foreign Origin', (p, t) => [`ws://127.0.0.1:${p}/ipc?token=${t}`, 'https://evil.example']],
    ['no Origin (another local process)', (p, t) => [`ws://127.0.0.1:${p}/ipc?token=${t}`, undefined]],
  ];
  it.each(attempts)('refuses a WebSocket with %s: 403 and no upgrade', async (_label, make) => {
    const { host } = await start();
    const [url, origin] = make(host.port, host.token);
    const result = await connect(url, origin);
    expect(result.status).toBe(403);
    expect(result.ws).toBeUndefined();
  });

  it('answers a malformed frame with invalid_request and keeps the socket open', async () => {
    const { host } = await start();
    const { ws } = await connect(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, `http://127.0.0.1:${host.port}`);
    const replies: unknown[] = [];
    const two = new Promise<void>((resolve) =>
      ws!.on('message', (d) => {
        replies.push(JSON.parse(d.toString()));
        if (replies.length === 2) resolve();
      }),
    );
    ws!.send('not json');
    ws!.send(JSON.stringify({ id: 2, channel: 'settings:get', payload: {} }));
    await two;
    expect(replies[0]).toMatchObject({ id: null, result: { ok: false, error: { code: 'invalid_request' } } });
    expect(replies[1]).toMatchObject({ id: 2, result: { ok: true } });
    ws!.close();
  });

  it('pushes contract events to connected tabs', async () => {
    const { host } = await start();
    const { ws } = await connect(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, `http://127.0.0.1:${host.port}`);
    const messages: { event?: string; payload?: { theme?: string } }[] = [];
    const gotEvent = new Promise<void>((resolve) =>
      ws!.on('message', (d) => {
        const m = JSON.parse(d.toString());
        messages.push(m);
        // Other events may come first (the vault finishing its scan on a busy machine).
        if (m.event === 'settings:did-change') resolve();
      }),
    );
    ws!.send(JSON.stringify({ id: 3, channel: 'settings:set', payload: { patch: { theme: 'dark' } } }));
    await gotEvent;
    expect(messages.find((m) => m.event === 'settings:did-change')).toMatchObject({ payload: { theme: 'dark' } });
    ws!.close();
  });
});
