// Shared pieces of the server benches (server-304-rps, server-put): a seeded team server on SQLite or
// a fresh PostgreSQL database, and a keep-alive HTTP client loop. Not a bench itself (no .bench.ts).
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { startTeamServer, TeamAdmin, type TeamServer } from '../server/index.js';
import { silentLogger } from '../main/core/ports.js';
import type { BenchLine } from './harness.js';

export const benchRepo = 'bench/memory';

/** A database for one bench run, removed by `drop()`. */
export interface BenchDb {
  kind: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

export async function sqliteBenchDb(): Promise<BenchDb> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-bench-server-'));
  return { kind: 'sqlite', url: `sqlite:${path.join(dir, 'team.db')}`, drop: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** A fresh database on STRATA_TEST_PG_URL's cluster, or null when it is not set. */
export async function postgresBenchDb(): Promise<BenchDb | null> {
  const base = process.env.STRATA_TEST_PG_URL;
  if (!base) return null;
  const pg = (await import('pg')).default;
  const name = `strata_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * `measure` on a fresh SQLite database, then on a fresh PostgreSQL one when the tests' cluster runs
 * (STRATA_TEST_PG_URL; otherwise that part is said to be skipped); each database is dropped after.
 */
export async function onBothDatabases(bench: string, measure: (db: BenchDb) => Promise<BenchLine[]>): Promise<BenchLine[]> {
  const lines: BenchLine[] = [];
  for (const open of [sqliteBenchDb, postgresBenchDb]) {
    const db = await open();
    if (!db) {
      process.stdout.write(`${JSON.stringify({ bench, skipped: 'PostgreSQL part: STRATA_TEST_PG_URL is not set (run under scripts/with-services.sh)' })}\n`);
      break;
    }
    try {
      lines.push(...(await measure(db)));
    } finally {
      await db.drop();
    }
  }
  return lines;
}

/** A running server, a member token, and a repository seeded with `entries` keys. */
export async function seededServer(db: BenchDb, entries: number): Promise<{ server: TeamServer; token: string; etag: string }> {
  const admin = await TeamAdmin.open(db.url);
  await admin.addUser('bench', null);
  await admin.grant('bench', benchRepo);
  const { token } = await admin.createToken('bench', null);
  await admin.close();
  const server = await startTeamServer({ db: db.url, port: 0, logger: silentLogger, limits: { rateLimitPerMinute: 0, maxEntries: Math.max(2000, entries + 10) } });
  const body = JSON.stringify({ entries: Object.fromEntries(Array.from({ length: entries }, (_, i) => [`notes/n${i}.md`, `# Note ${i}\n${'x'.repeat(200)}\n`])) });
  const res = await request(server.port, 'PUT', token, body, {});
  if (res.status !== 200) throw new Error(`seeding answered ${res.status}`);
  return { server, token, etag: res.etag! };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** One request on a keep-alive connection; the body is read and dropped. */
export function request(
  port: number,
  method: 'GET' | 'PUT',
  token: string,
  body: string | null,
  headers: Record<string, string>,
  pathAndQuery = `/api/team_memory?repo=${encodeURIComponent(benchRepo)}`,
): Promise<{ status: number; etag: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: pathAndQuery, agent, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag }));
      },
    );
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

/** Runs `once` from `concurrency` loops for `ms`; returns completed calls per second. */
export async function throughput(ms: number, concurrency: number, once: () => Promise<void>): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await once();
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}
