import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

const bin = path.resolve('bin/strata.mjs');

/** Runs `strata host` as a user would (`npx strata host` resolves to the same bin) from another folder. */
async function startCliHost(args: string[]) {
  const appData = await tempDir();
  const child = spawn(process.execPath, [bin, 'host', ...args], {
    cwd: await tempDir(),
    env: { ...process.env, STRATA_APP_DATA: appData },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`host exited with ${code}`)));
  });
  const stop = async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    return exited;
  };
  return { first, stop };
}

describe('the strata command', () => {
  it('prints the host URL as its first stdout line, serves the app there and exits 0 on SIGTERM', async () => {
    const { first, stop } = await startCliHost(['--port', '0']);
    expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    const res = await fetch(first);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root">');
    expect(await stop()).toBe(0);
  });

  it('prints {url, port, token} with --json', async () => {
    const { first, stop } = await startCliHost(['--port', '0', '--json']);
    const doc = JSON.parse(first) as { url: string; port: number; token: string };
    expect(doc.url).toBe(`http://127.0.0.1:${doc.port}/?token=${doc.token}`);
    await stop();
  });

  it.each([
    [['host', '--port', 'abc'], 2, /--port/],
    [['host', '--bogus'], 2, /bogus/],
    [['no-such-command'], 2, /unknown command/],
    [[], 2, null],
  ])('exits %j with code %i and a one-line error', (args, code, pattern) => {
    const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(code);
    if (pattern) {
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(pattern);
    }
  });

  it('prints help with --help and exits 0', () => {
    const result = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('host');
    const sub = spawnSync(process.execPath, [bin, 'host', '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(sub.status).toBe(0);
    expect(sub.stdout).toContain('strata host');
  });
});
