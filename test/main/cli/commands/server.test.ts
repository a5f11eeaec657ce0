import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, type CliIo } from '../../../../main/cli/cli-io.js';
import { silentLogger } from '../../../../main/core/ports.js';
import { runCli } from '../../../../main/cli/index.js';
import { createServerCommand } from '../../../../main/cli/commands/server.js';
import { tempDir } from '../../../support/temp-dir.js';
import { json } from '../../../server/helpers/server-fixture.js';
import { formSignIn } from '../../../server/helpers/oauth-client.js';
import { defaultLimits } from '../../../../server/index.js';

function testIo(env: NodeJS.ProcessEnv = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const io: CliIo = { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l), env, stopped };
  return { io, stdout, stderr, stop };
}

async function run(argv: string[], env: NodeJS.ProcessEnv = {}, stdin = '') {
  const t = testIo(env);
  const command = createServerCommand(async () => stdin, silentLogger);
  let code: number;
  try {
    code = await command.run(argv, t.io);
  } catch (error) {
    t.stderr.push((error as Error).message);
    code = error instanceof UsageError ? 2 : 1;
  }
  return { code, ...t };
}

/** Starts `strata server` through the command; resolves once it printed its URL. */
async function startViaCli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const t = testIo(env);
  const done = createServerCommand(async () => '', silentLogger).run(argv, t.io);
  for (let i = 0; i < 500 && t.stdout.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  return { url: t.stdout[0]!, stop: async () => (t.stop(), done) };
}

describe('strata server administration', () => {
  it('adds a user from stdin, grants a repository and prints a working token as the last stdout line', async () => {
    const db = `sqlite:${await tempDir()}/team.db`;
    expect((await run(['user', 'add', 'alice', '--password-stdin', '--db', db], {}, 'a long password\n')).code).toBe(0);
    expect((await run(['grant', 'alice', 'acme/web', '--db', db])).code).toBe(0);
    const token = await run(['token', 'alice', '--expires-days', '7', '--db', db]);
    expect(token.code).toBe(0);
    const secret = token.stdout.at(-1)!;
    expect(secret).toMatch(/^spat_[A-Za-z0-9_-]{43}$/);
    const tokenId = /token (pat_\S+)/.exec(token.stdout[0]!)![1]!;

    const server = await startViaCli(['--db', db, '--port', '0']);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const api = `${server.url}/api/team_memory?repo=acme%2Fweb`;
      expect((await fetch(api, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(404);
      expect((await run(['token', 'revoke', tokenId, '--db', db])).code).toBe(0);
      expect((await fetch(api, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('stores the password only as a slow scrypt hash', async () => {
    const file = path.join(await tempDir(), 'team.db');
    expect((await run(['user', 'add', 'erin', '--password-stdin', '--db', `sqlite:${file}`], {}, 'erin password 1\n')).code).toBe(0);
    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(file, { readonly: true });
    const { password_hash: hash } = raw.prepare('SELECT password_hash FROM users WHERE username = ?').get('erin') as { password_hash: string };
    raw.close();
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('erin password 1');
  });

  it('applies --max-entries, --max-file-bytes and --max-body-bytes, and defaults to docs/memory.md#team-memory limits and 600 a minute', async () => {
    expect(defaultLimits).toMatchObject({ maxEntries: 2000, maxFileBytes: 250_000, maxBodyBytes: 1024 * 1024, rateLimitPerMinute: 600 });
    const db = `sqlite:${await tempDir()}/limits.db`;
    await run(['user', 'add', 'frank', '--db', db]);
    await run(['grant', 'frank', 'acme/web', '--db', db]);
    const secret = (await run(['token', 'frank', '--db', db])).stdout.at(-1)!;
    const server = await startViaCli(['--db', db, '--port', '0', '--max-entries', '1', '--max-file-bytes', '10', '--max-body-bytes', '300']);
    try {
      const put = async (entries: Record<string, string>) => {
        const res = await fetch(`${server.url}/api/team_memory?repo=acme%2Fweb`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ entries }),
        });
        return { status: res.status, code: (await json(res)).error?.details.error_code };
      };
      expect(await put({ 'a.md': 'x', 'b.md': 'y' })).toEqual({ status: 413, code: 'team_memory_too_many_entries' });
      expect(await put({ 'a.md': 'x'.repeat(11) })).toEqual({ status: 413, code: 'team_memory_file_too_large' });
      expect(await put({ ['k'.repeat(300)]: 'x' })).toEqual({ status: 413, code: 'body_too_large' });
    } finally {
      await server.stop();
    }
  });

  it('applies --max-repo-bytes, so a repository stays servable', async () => {
    const db = `sqlite:${await tempDir()}/repo-bytes.db`;
    await run(['user', 'add', 'gina', '--db', db]);
    await run(['grant', 'gina', 'acme/web', '--db', db]);
    const secret = (await run(['token', 'gina', '--db', db])).stdout.at(-1)!;
    const server = await startViaCli(['--db', db, '--port', '0', '--max-repo-bytes', '15', '--max-tombstones', '5', '--request-timeout-ms', '5000']);
    try {
      const res = await fetch(`${server.url}/api/team_memory?repo=acme%2Fweb`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ entries: { 'a.md': 'x'.repeat(10), 'b.md': 'y'.repeat(10) } }),
      });
      expect(res.status).toBe(413);
      expect((await json(res)).error.details).toMatchObject({ error_code: 'team_memory_repo_too_large', max_repo_bytes: 15 });
    } finally {
      await server.stop();
    }
  });

  it('takes every server flag from STRATA_SERVER_* variables', async () => {
    const dir = await tempDir();
    const db = `sqlite:${dir}/env.db`;
    await run(['user', 'add', 'bob'], { STRATA_SERVER_DB: db });
    await run(['grant', 'bob', 'acme/web'], { STRATA_SERVER_DB: db });
    const secret = (await run(['token', 'bob'], { STRATA_SERVER_DB: db })).stdout.at(-1)!;
    const server = await startViaCli([], { STRATA_SERVER_DB: db, STRATA_SERVER_PORT: '0', STRATA_SERVER_RATE_LIMIT: '1', STRATA_SERVER_PUBLIC_URL: 'https://team.example' });
    try {
      const api = `${server.url}/api/team_memory?repo=acme%2Fweb`;
      expect((await fetch(api, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(404);
      expect((await fetch(api, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(429);
      const meta = await json((await fetch(`${server.url}/.well-known/oauth-authorization-server`)));
      expect(meta.issuer).toBe('https://team.example');
    } finally {
      await server.stop();
    }
  });

  it('counts sign-in attempts by the X-Forwarded-For address of a proxy named in --trust-proxy / STRATA_SERVER_TRUST_PROXY', async () => {
    const db = `sqlite:${await tempDir()}/proxy.db`;
    const server = await startViaCli(['--db', db, '--port', '0'], { STRATA_SERVER_TRUST_PROXY: 'loopback' });
    try {
      for (let i = 0; i < 20; i++) expect((await formSignIn(server.url, `guess${i}`, 'wrong password', '203.0.113.1')).status).toBe(401);
      expect((await formSignIn(server.url, 'guess20', 'wrong password', '203.0.113.1')).status).toBe(429);
      expect((await formSignIn(server.url, 'guess20', 'wrong password', '203.0.113.2')).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('creates the default database under the app data folder, or in --data-dir / STRATA_SERVER_DATA_DIR', async () => {
    const appData = await tempDir();
    expect((await run(['user', 'add', 'carol'], { STRATA_APP_DATA: appData })).code).toBe(0);
    expect(existsSync(path.join(appData, 'server', 'team.db'))).toBe(true);

    const flagDir = path.join(await tempDir(), 'by-flag');
    expect((await run(['user', 'add', 'carol', '--data-dir', flagDir], { STRATA_APP_DATA: appData })).code).toBe(0);
    expect(existsSync(path.join(flagDir, 'team.db'))).toBe(true);
    const envDir = path.join(await tempDir(), 'by-env');
    const server = await startViaCli(['--port', '0'], { STRATA_APP_DATA: appData, STRATA_SERVER_DATA_DIR: envDir });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(existsSync(path.join(envDir, 'team.db'))).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it('exits 2 with one stderr line on bad usage and bad input, changing nothing', async () => {
    const dir = await tempDir();
    const env = { STRATA_APP_DATA: dir };
    const cases: string[][] = [
      ['server', 'grant', 'nobody', 'acme/web'],
      ['server', 'grant', 'x'],
      ['server', 'user', 'add', 'bad name'],
      ['server', 'token', 'nobody'],
      ['server', 'token', 'revoke', 'pat_missing'],
      ['server', 'frobnicate'],
      ['server', '--port', 'abc'],
      ['server', '--rate-limit', '-1'],
      ['server', '--db', 'mysql://x'],
      ['server', '--unknown-flag'],
    ];
    await runCli(['server', 'user', 'add', 'dave'], { ...testIo(env).io });
    for (const argv of cases) {
      const t = testIo(env);
      const code = await runCli(argv, t.io);
      expect(code, argv.join(' ')).toBe(2);
      expect(t.stderr, argv.join(' ')).toHaveLength(1);
    }
    const again = testIo(env);
    expect(await runCli(['server', 'user', 'add', 'dave'], again.io)).toBe(2);
    expect(again.stderr[0]).toMatch(/already exists/);
    expect((await run(['grant', 'dave', 'acme/web'], env)).code).toBe(0);
  });
});
