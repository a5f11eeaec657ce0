import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { line, type Bench } from './harness.js';
import { onBothDatabases, request, seededServer, throughput, type BenchDb } from './server-bench-support.js';

const name = 'server-304-rps';
// Small by default (docs/architecture.md: the whole run stays under 10 minutes on 2 cores).
const seconds = Number(process.env.STRATA_BENCH_SECONDS ?? 3);
const concurrency = 16;

/** Baseline: a bare node:http server in this process answering every request with 304. */
async function bareRps(): Promise<number> {
  const server = http.createServer((_req, res) => res.writeHead(304, { etag: '"sha256:x"' }).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  try {
    return await throughput(seconds * 1000, concurrency, async () => void (await request(port, 'GET', 't', null, { 'if-none-match': '"sha256:x"' })));
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

/** No-change pulls a second: authenticated GETs whose If-None-Match matches, answered 304. */
async function serverRps(db: BenchDb): Promise<number> {
  const { server, token, etag } = await seededServer(db, 50);
  try {
    const check = await request(server.port, 'GET', token, null, { 'if-none-match': etag });
    if (check.status !== 304) throw new Error(`expected 304, got ${check.status}`);
    return await throughput(seconds * 1000, concurrency, async () => {
      const res = await request(server.port, 'GET', token, null, { 'if-none-match': etag });
      if (res.status !== 304) throw new Error(`expected 304, got ${res.status}`);
    });
  } finally {
    await server.close();
  }
}

const bench: Bench = {
  name,
  async run() {
    const baseline = await bareRps();
    return onBothDatabases(name, async (db) => [line(name, `${db.kind}-304-per-second`, 'req/s', await serverRps(db), baseline, { concurrency, seconds })]);
  },
};
export default bench;
