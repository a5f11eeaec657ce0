import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does to one request. */
export type ProxyFault = 'pass' | 'error-500' | 'hang' | 'drop-before' | 'drop-after' | 'truncate';

/**
 * An HTTP proxy in front of the real team server that breaks requests the way networks and servers do:
 * a 500 without reaching the server, a hang (accepted, never answered), a connection dropped before the
 * request reaches the server or after it was applied (the answer lost), and an answer cut off halfway
 * through its body. `choose` decides per request; `pass` forwards it untouched.
 */
export interface FaultProxy {
  url: string;
  /** Counts of each fault injected so far. */
  injected: Record<ProxyFault, number>;
  close(): Promise<void>;
}

export async function startFaultProxy(upstream: string, choose: () => ProxyFault): Promise<FaultProxy> {
  const injected: Record<ProxyFault, number> = { pass: 0, 'error-500': 0, hang: 0, 'drop-before': 0, 'drop-after': 0, truncate: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const fault = choose();
      injected[fault]++;
      if (fault === 'hang') return;
      if (fault === 'drop-before') return req.socket.destroy();
      if (fault === 'error-500') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'injected', details: { error_code: 'internal' } } }));
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(`${upstream}${req.url}`, { method: req.method, headers, body })
        .then(async (answer) => {
          const bytes = Buffer.from(await answer.arrayBuffer());
          if (fault === 'drop-after') return req.socket.destroy();
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding', 'keep-alive'].includes(name)) out[name] = value;
          });
          res.writeHead(answer.status, { ...out, 'content-length': String(bytes.length) });
          if (fault === 'truncate' && bytes.length > 1) {
            res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
            setTimeout(() => req.socket.destroy(), 5);
            return;
          }
          res.end(bytes);
        })
        .catch(() => req.socket.destroy());
    });
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    injected,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
