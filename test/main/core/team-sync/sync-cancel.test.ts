import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { ProjectPaths } from '../../../../main/core/paths/index.js';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { createVaultEngines } from '../../../../main/core/services.js';
import { TeamApi } from '../../../../main/core/team-sync/team-api.js';
import { testLogger } from '../../../support/test-logger.js';
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
/** The requests the silent server was sent, by repository (each a connection it accepted and never answered). */
const asked = new Map<string, number>();

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-cancel-');
  silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Answers headers and half a body to requests for a `stall-body` repository, nothing to the others.
    socket.once('data', (chunk) => {
      const repo = /repo=([^&\s]+)/.exec(chunk.toString())?.[1];
      if (repo) asked.set(decodeURIComponent(repo), (asked.get(decodeURIComponent(repo)) ?? 0) + 1);
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

  it('gives up the whole sync on a silent server once its wait budget is spent, not after every retry: offline, changes pending', async () => {
    const repo = freshRepo();
    // Each try would wait 400 ms and be retried 5 times (3 s in all); the run's budget is 1 s.
    const device = await makeDevice('budget', silentUrl, 't', repo, {
      api: new TeamApi({ serverUrl: silentUrl, repo, getToken: async () => 't', headersTimeoutMs: 400 }),
      config: { ...defaultMemoryConfig.teamSync, unansweredBudgetMs: 1000, backoffBaseMs: 50 },
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    await device.write('typed.md', 'typed while the server hangs\n');
    const report = await device.engine.sync();
    expect(report.error).toEqual({ code: 'offline', message: 'offline — changes stay pending (the team server did not answer within 1 s)' });
    // 400 + 400 + what was left: three tries, where retrying each to its own timeout made six.
    expect(asked.get(repo)).toBe(3);
    expect(report.pending).toEqual(['typed.md']);
    expect(device.engine.status().phase).toBe('offline');
  });

  it('`strata sync` against a silent server stops at the vault\'s wait budget and says offline, changes pending (exit 1)', async () => {
    const repo = freshRepo();
    const dir = await tempDir('strata-cli-project-');
    await fs.mkdir(path.join(dir, '.git'));
    await fs.writeFile(path.join(dir, '.git', 'config'), `[remote "origin"]\n\turl = https://github.com/${repo}.git\n`);
    const vault = await tempDir('strata-cli-vault-');
    // The product waits 60 s; this vault's settings say 1.5 s, under the 20 s a single try would wait.
    const engines = await createVaultEngines({ root: vault, logger: testLogger().logger });
    await engines.settings.update({ memory: { teamSync: { unansweredBudgetMs: 1500 } } });
    const out: string[] = [];
    const cli: CliIo = { stdout: (line) => out.push(line), stderr: () => undefined, env: { STRATA_TEAM_TOKEN: 'spat_x' }, stopped: new Promise<void>(() => undefined) };
    expect(await runCli(['sync', '--project', dir, '--server', silentUrl, '--vault', vault], cli)).toBe(1);
    expect(out).toContain('error: offline — changes stay pending (the team server did not answer within 1.5 s)');
    expect(asked.get(repo)).toBe(1);
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
