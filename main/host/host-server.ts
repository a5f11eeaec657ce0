import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { err, type Result } from '../../common/result.js';
import type { Dispatch } from '../core/ipc/index.js';
import type { EventHub } from '../core/events.js';
import type { Logger } from '../core/ports.js';
import { contentSecurityPolicy } from '../core/security/index.js';
import { mimeTypeOf, resolveStaticFile } from '../core/security/index.js';
import { reenterPage } from './reenter-page.js';

export interface HostOptions {
  rendererDir: string;
  dispatch: Dispatch;
  events: EventHub;
  logger: Logger;
  port?: number;
  /** Fixed token for tests; a fresh 32-byte base64url one otherwise. */
  token?: string;
}

export interface RunningHost {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/**
 * Largest WebSocket message accepted from a tab (ws `maxPayload`): generous for pasted text, bounded
 * against abuse. A frame header announcing more closes that connection with 1009 before any of the
 * payload is buffered (RFC 6455 §7.4.1).
 */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

function sameSecret(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function forbid(res: http.ServerResponse): void {
  res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden');
}

interface Frame {
  id: string | number;
  channel: string;
  payload?: unknown;
}

function parseFrame(data: string): Frame | null {
  try {
    const value = JSON.parse(data) as Partial<Frame>;
    if ((typeof value.id === 'string' || typeof value.id === 'number') && typeof value.channel === 'string') {
      return value as Frame;
    }
  } catch {
    // Fall through: not a frame.
  }
  return null;
}

/**
 * `strata host` (docs/architecture.md#the-host): the built renderer and the IPC contract over a WebSocket, on
 * 127.0.0.1 only. The per-run token, the exact `Host` and the exact `Origin` keep other local
 * processes, web pages and DNS-rebinding attacks out.
 */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const sockets = new Set<WebSocket>();
  let port = 0;
  const expectedHost = () => `127.0.0.1:${port}`;
  const expectedOrigin = () => `http://${expectedHost()}`;

  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.headers.host !== expectedHost() || (req.method !== 'GET' && req.method !== 'HEAD')) return forbid(res);
      const url = new URL(req.url ?? '/', expectedOrigin());
      const headers = {
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      };
      if (url.pathname === '/' || url.pathname === '/index.html') {
        if (!sameSecret(url.searchParams.get('token'), token)) {
          // Still 403; the body lets a reloaded tab come back with the token it kept (reenter-page.ts).
          res.writeHead(403, { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': reenterPage.csp });
          return res.end(req.method === 'HEAD' ? undefined : reenterPage.html);
        }
        const html = await fs.readFile(path.join(options.rendererDir, 'index.html'));
        res.writeHead(200, {
          ...headers,
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': contentSecurityPolicy([`ws://${expectedHost()}`]),
        });
        return res.end(req.method === 'HEAD' ? undefined : html);
      }
      const file = await resolveStaticFile(options.rendererDir, url.pathname);
      if (!file) return forbid(res);
      res.writeHead(200, { ...headers, 'content-type': mimeTypeOf(file), 'cache-control': 'no-cache' });
      res.end(req.method === 'HEAD' ? undefined : await fs.readFile(file));
    })().catch((error: unknown) => {
      options.logger.error('host request failed', { error: (error as Error).message });
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', expectedOrigin());
    const allowed =
      url.pathname === '/ipc' &&
      req.headers.host === expectedHost() &&
      req.headers.origin === expectedOrigin() &&
      sameSecret(url.searchParams.get('token'), token);
    // A peer that resets mid-handshake must not take the host down (ws adds its own listener once upgraded).
    socket.on('error', () => socket.destroy());
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      // A malformed frame (oversized, bad UTF-8, unmasked, RSV set, unknown opcode, invalid close code):
      // ws has already closed this connection with the code RFC 6455 §7.4.1 names; without this
      // listener the 'error' event would end the whole process and every other tab with it.
      ws.on('error', (error: Error & { code?: string }) => {
        options.logger.warn('host: closed a tab connection after a malformed WebSocket frame', { code: error.code, reason: error.message });
      });
      ws.on('message', (data) => answer(ws, data.toString()));
    });
  });

  function answer(ws: WebSocket, data: string): void {
    const reply = (message: unknown) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const frame = parseFrame(data);
    if (!frame) return reply({ id: null, result: err('invalid_request', 'Malformed frame') });
    options
      .dispatch(frame.channel, frame.payload)
      .catch((error: unknown): Result<unknown> => {
        // The dispatcher answers Results; a throw is a bug, still answered so the tab does not wait forever.
        options.logger.error('host: a request failed', { channel: frame.channel, error: (error as Error).message });
        return err('internal', 'The request failed');
      })
      .then((result) => reply({ id: frame.id, result }))
      .catch((error: unknown) => options.logger.error('host: could not send a reply', { channel: frame.channel, error: (error as Error).message }));
  }

  const unsubscribe = options.events.subscribe((event, payload) => {
    const message = JSON.stringify({ event, payload });
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(message);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // After the start (e.g. out of file descriptors while accepting): logged, and the host carries on.
  server.on('error', (error) => options.logger.error('host: server error', { error: error.message }));
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
