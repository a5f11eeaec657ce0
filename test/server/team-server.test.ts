import http from 'node:http';
import net from 'node:net';
import { expect, it } from 'vitest';
import { describeOnBackends } from './helpers/backends.js';
import { client, freshRepo, json, startFixture } from './helpers/server-fixture.js';

/** Sends a PUT whose body arrives in two parts, the second only when `release` is called. */
function slowPut(url: string, token: string, body: string) {
  let release!: () => void;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    release = () => req.end(body.slice(half));
  });
  return { response, release: () => release() };
}

/** Sends raw bytes and reads until the server closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(out));
    setTimeout(() => reject(new Error(`no close; got ${out}`)), 5000);
  });
}

describeOnBackends('team server lifecycle', (backend) => {
  it('answers a path that does not decode, and bytes that are not HTTP, with the docs/sync-protocol.md error body', async () => {
    const f = await startFixture(backend.url());
    try {
      const cases: [string, number][] = [
        ['GET /api/team_memory%zz?repo=a%2Fb HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
        ['NOT HTTP AT ALL\r\n\r\n', 400],
        [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`, 431],
      ];
      for (const [request, status] of cases) {
        const answer = await rawExchange(f.server.port, request);
        expect(answer.split('\r\n')[0], request.slice(0, 30)).toBe(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`);
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { message: string; details: { error_code: string } } };
        expect(body.error.details.error_code).toBe('invalid_request');
        expect(body.error.message.length).toBeGreaterThan(0);
      }
    } finally {
      await f.close();
    }
  });


  it('shuts down gracefully: a request in flight finishes and is stored, then new connections are refused', async () => {
    const f = await startFixture(backend.url());
    try {
      const repo = freshRepo();
      const { token } = await f.member([repo]);
      const put = slowPut(f.api(repo), token, JSON.stringify({ entries: { 'in-flight.md': 'written while closing' } }));
      await new Promise((r) => setTimeout(r, 100));
      const closeStarted = Date.now();
      const closed = f.server.close();
      await new Promise((r) => setTimeout(r, 50));
      put.release();
      const res = await put.response;
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ version: 1 });
      await closed;
      // Idle keep-alive sockets do not hold the shutdown until their timeout.
      expect(Date.now() - closeStarted).toBeLessThan(2000);
      await expect(fetch(`${f.server.url}/healthz`)).rejects.toThrow();

      // The write reached the database: a new server on it serves the entry.
      const again = await startFixture(backend.url());
      try {
        const body = await json(await client(token).get(again.api(repo)));
        expect(body.content.entries).toEqual({ 'in-flight.md': 'written while closing' });
      } finally {
        await again.close();
      }
    } finally {
      await f.close();
    }
  });
});
