import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { ProjectPaths } from '../../../../main/core/paths/index.js';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { tempDir } from '../../../support/temp-dir.js';
import { freshRepo, makeDevice } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/**
 * A server that accepts the connection and never answers (or stops halfway through a body) must not
 * hold a sync: every request has a headers and a whole-request timeout, and `close()` / Ctrl-C end a
 * run at once with the state as consistent as after a crash.
 */
let server: SyncServer;
let silent: net.Server;
let silentUrl: string;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-cancel-');
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Answers headers and half a body to requests for a `stall-body` repository, nothing to the others.
    socket.once('data', (chunk) => {
      if (chunk.toString().includes('stall-body')) {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"repo":"a');
      }
    });
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  await server.close();
});

describe('team sync timeouts and cancellation', () => {
  it('gives up on a server that never answers after the headers timeout, and on a body that stops, as a network failure', async () => {
    const started = Date.now();
    const hung = await new TeamApi({ serverUrl: silentUrl, repo: 'acme/hang', getToken: async () => 't', headersTimeoutMs: 300 }).get(null);
    expect(hung).toEqual({ kind: 'network', message: 'the team server did not answer within 300 ms' });
    const stalled = await new TeamApi({ serverUrl: silentUrl, repo: 'acme/stall-body', getToken: async () => 't', headersTimeoutMs: 5000, requestTimeoutMs: 400 }).get(null);
    expect(stalled).toEqual({ kind: 'network', message: "the team server's answer took longer than 400 ms" });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('close() ends a run stuck on a silent server at once; the next run against a real server pushes everything', async () => {
    const repo = freshRepo();
    const token = await server.member([repo]);
    const device = await makeDevice('a', silentUrl, token, repo);
    await device.write('typed.md', 'typed before the hang\n');
    const run = device.engine.sync();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await device.engine.close();
    const report = await run;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(report.error?.code).toBe('cancelled');
    expect(device.engine.status().phase).toBe('error');
    expect((await device.engine.sync()).error?.code).toBe('cancelled');

    // The same vault with a fresh engine on the real server: nothing was lost or half-recorded.
    const again = await makeDevice('a2', server.url, token, repo);
    await fs.cp(device.vault, again.vault, { recursive: true });
    const pushed = await again.engine.sync();
    expect(pushed.error).toBeNull();
    expect(pushed.pushed).toEqual(['typed.md']);
  });

  it('Ctrl-C ends `strata sync` against a silent server at once with exit 130', async () => {
    const repo = freshRepo();
    const dir = await tempDir('strata-cli-project-');
    await fs.mkdir(path.join(dir, '.git'));
    await fs.writeFile(path.join(dir, '.git', 'config'), `[remote "origin"]\n\turl = https://github.com/${repo}.git\n`);
    const vault = await tempDir('strata-cli-vault-');
    const teamDir = (await ProjectPaths.resolve(vault, dir)).teamMemoryDir;
    await fs.mkdir(teamDir, { recursive: true });
    await fs.writeFile(path.join(teamDir, 'a.md'), 'a\n');
    let interrupt!: () => void;
    const err: string[] = [];
    const cli: CliIo = {
      stdout: () => undefined,
      stderr: (line) => err.push(line),
      env: { STRATA_TEAM_TOKEN: 'spat_x' },
      stopped: new Promise<void>((resolve) => (interrupt = resolve)),
    };
    const exit = runCli(['sync', '--project', dir, '--server', silentUrl, '--vault', vault], cli);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    interrupt();
    expect(await exit).toBe(130);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err.join('\n')).toContain('stopped: the sync was interrupted');
  });
});
