import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';

/** A database a suite runs against; `url()` is valid between the suite's beforeAll and afterAll. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  url(): string;
}

/** The PostgreSQL URL from the global setup, '' when there is none. */
export function pgUrl(): string {
  return inject('pgUrl');
}

/** Creates a database with a random name on the test cluster; returns its URL and a drop function. */
export async function createPgDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `strata_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * Runs `body` once on a fresh SQLite file and once on a fresh PostgreSQL database. Without
 * PostgreSQL the second suite is skipped with a message locally and fails on CI (which always has it).
 */
export function describeOnBackends(title: string, body: (backend: Backend) => void): void {
  describe(`${title} (SQLite)`, () => {
    let dir = '';
    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-server-'));
    });
    afterAll(async () => {
      await fs.rm(dir, { recursive: true, force: true });
    });
    body({ name: 'sqlite', url: () => `sqlite:${path.join(dir, 'team.db')}` });
  });
  const base = pgUrl();
  if (!base) {
    if (process.env.CI) {
      describe(`${title} (PostgreSQL)`, () => {
        it('has a PostgreSQL to test against', () => {
          throw new Error('CI must provide PostgreSQL (STRATA_TEST_PG_URL via scripts/with-services.sh)');
        });
      });
    } else {
      describe.skip(`${title} (PostgreSQL) — skipped: no PostgreSQL; run under scripts/with-services.sh`, () => {
        it('needs PostgreSQL', () => undefined);
      });
    }
    return;
  }
  describe(`${title} (PostgreSQL)`, () => {
    let database: { url: string; drop: () => Promise<void> } | null = null;
    beforeAll(async () => {
      database = await createPgDatabase(base);
    });
    afterAll(async () => {
      await database?.drop();
    });
    body({ name: 'postgres', url: () => database!.url });
  });
}
