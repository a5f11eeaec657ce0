import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { malformedFrames, sendRaw } from '../support/raw-websocket.js';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES } from '../../main/host/host-server.js';

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
  return { first, stop, child };
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

  it('keeps serving after each of the six malformed WebSocket frames: the bad connection closes, a new tab is answered', async () => {
    const { first, stop, child } = await startCliHost(['--port', '0', '--json']);
    const { port, token } = JSON.parse(first) as { port: number; token: string };
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const frames = malformedFrames(MAX_FRAME_BYTES);
    for (const [label, bytes, code] of frames) {
      expect(await sendRaw(port, token, bytes()), label).toBe(code);
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc?token=${token}`, { origin: `http://127.0.0.1:${port}` });
      const reply = await new Promise<{ id?: number; result?: { ok: boolean } }>((resolve, reject) => {
        ws.on('message', (d) => {
          const m = JSON.parse(d.toString()) as { id?: number };
          if (m.id === 1) resolve(m);
        });
        ws.once('open', () => ws.send(JSON.stringify({ id: 1, channel: 'app:info', payload: {} })));
        ws.once('error', reject);
      });
      expect(reply.result?.ok, label).toBe(true);
      ws.close();
    }
    expect(child.exitCode).toBeNull();
    expect(stderr.split('\n').filter((l) => l.includes('malformed WebSocket frame'))).toHaveLength(frames.length);
    expect(await stop()).toBe(0);
  });

  it("reports the package.json version to the app's status bar (app:info) from the built CLI", async () => {
    const { version } = JSON.parse(await fs.readFile('package.json', 'utf8')) as { version: string };
    const { first, stop } = await startCliHost(['--port', '0', '--json']);
    const { port, token } = JSON.parse(first) as { port: number; token: string };
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ipc?token=${token}`, { origin: `http://127.0.0.1:${port}` });
    const reply = await new Promise<{ result?: { ok: boolean; value?: { version: string } } }>((resolve, reject) => {
      ws.on('message', (d) => resolve(JSON.parse(d.toString()) as never));
      ws.once('open', () => ws.send(JSON.stringify({ id: 1, channel: 'app:info', payload: {} })));
      ws.once('error', reject);
    });
    ws.close();
    expect(reply.result?.value?.version).toBe(version);
    await stop();
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

  it('writes a --json document of over 1 MB whole through a pipe (scan-secrets of 3,000 files)', async () => {
    const root = await tempDir();
    const deep = path.join(root, 'a-folder-with-a-rather-long-name-'.repeat(6));
    await fs.mkdir(deep);
    await Promise.all(Array.from({ length: 3_000 }, (_, i) => fs.writeFile(path.join(deep, `${'note-'.repeat(40)}${i}.md`), `note ${i}\n`)));
    const result = spawnSync(process.execPath, [bin, 'scan-secrets', '--json', root], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    expect(result.status).toBe(0);
    expect(Buffer.byteLength(result.stdout)).toBeGreaterThan(1024 * 1024);
    expect((JSON.parse(result.stdout) as { files: unknown[] }).files).toHaveLength(3_000);
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
