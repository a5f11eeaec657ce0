import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTeamServer, TeamAdmin, type TeamServer } from '../../../server/index.js';
import { hashPassword, productionPasswordCost, verifyPassword } from '../../../server/server-crypto.js';
import { AuthStore } from '../../../server/storage/auth-store.js';
import { openDatabase } from '../../../server/storage/open-db.js';
import { testLogger } from '../../support/test-logger.js';
import { cheapPasswordCost } from '../helpers/server-fixture.js';
import { formSignIn } from '../helpers/oauth-client.js';

// Other server tests hash at a cheap cost; these prove that what `strata server` runs (no cost passed)
// hashes and checks at OWASP's scrypt cost, N=2^15 r=8 p=1.

let dir = '';
let db = '';
let server: TeamServer;
const logs = testLogger();

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strata-cost-'));
  db = `sqlite:${path.join(dir, 'team.db')}`;
  server = await startTeamServer({ db, port: 0, logger: logs.logger, limits: { rateLimitPerMinute: 0 } });
});
afterAll(async () => {
  await server.close();
  await fs.rm(dir, { recursive: true, force: true });
  logs.assertNoErrors();
});

/** The fastest of three runs, so one slow moment on a loaded machine does not decide. */
async function fastest(run: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

it('stores a password added as `strata server user add` does at N=2^15 r=8 p=1, and signs in with it', async () => {
  expect(productionPasswordCost).toEqual({ N: 32768, r: 8, p: 1 });
  const admin = await TeamAdmin.open(db);
  try {
    await admin.addUser('dana', 'correct horse battery');
  } finally {
    await admin.close();
  }
  const database = await openDatabase(db);
  try {
    const stored = (await new AuthStore(database).findUser('dana'))?.passwordHash ?? '';
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  } finally {
    await database.close();
  }
  expect((await formSignIn(server.url, 'dana', 'correct horse battery')).status).toBe(302);
});

it('makes a sign-in for an unknown name pay the production cost when no cost is passed', async () => {
  const oneScrypt = await fastest(() => hashPassword('x'));
  const cheap = await fastest(() => hashPassword('x', cheapPasswordCost));
  // The two costs are far apart (tens of ms against well under one), so half of one production scrypt
  // separates them even on a loaded machine.
  expect(cheap).toBeLessThan(oneScrypt / 2);
  const unknown = await fastest(() => formSignIn(server.url, 'nobody-here', 'wrong password'));
  expect(unknown).toBeGreaterThan(oneScrypt / 2);
});
