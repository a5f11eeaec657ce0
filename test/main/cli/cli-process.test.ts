import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../fakes/anthropic-server/index.js';
import { tempDir } from '../../support/temp-dir.js';

/** `strata` as a whole process (stdout a pipe, real signals), run from source through main/cli/index.ts. */
const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'strata-child.ts');

function strata(args: string[], env: Record<string, string> = {}, script = child) {
  const proc = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) =>
    proc.on('close', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { proc, exited, out: () => stdout, err: () => stderr };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A server that accepts every request and never answers it (a wedged proxy or team server). */
async function silentServer() {
  const requests: http.IncomingMessage[] = [];
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  const server = http.createServer((req) => {
    requests.push(req);
    arrived();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, first, requests };
}

describe('the strata process', () => {
  it('writes all of a --json document over 1 MB through a pipe before it exits', async () => {
    // Long nested names, so a few thousand files make more than a megabyte of JSON.
    const root = await tempDir();
    const deep = path.join(root, ...Array.from({ length: 4 }, (_, i) => `${'folder-with-a-long-name-'.repeat(4)}${i}`));
    await fs.mkdir(deep, { recursive: true });
    const count = 3_000;
    await Promise.all(Array.from({ length: count }, (_, i) => fs.writeFile(path.join(deep, `${'note-'.repeat(30)}${i}.md`), `note ${i}\n`)));

    const run = strata(['scan-secrets', '--json', root]);
    const { code } = await run.exited;
    expect(run.err()).toBe('');
    expect(code).toBe(0);
    expect(Buffer.byteLength(run.out())).toBeGreaterThan(1024 * 1024);
    const doc = JSON.parse(run.out()) as { files: { path: string }[] };
    expect(doc.files).toHaveLength(count);
  });

  it('ends `strata sync` within a second of SIGINT while the server never answers, exit 130', async () => {
    const server = await silentServer();
    const project = await tempDir('strata-cli-project-');
    await fs.mkdir(path.join(project, '.git'));
    await fs.writeFile(path.join(project, '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/acme/notes.git\n');
    const vault = await tempDir('strata-cli-vault-');

    const run = strata(['sync', '--project', project, '--server', server.url, '--vault', vault, '--json'], { STRATA_TEAM_TOKEN: 'token-for-a-silent-server' });
    await Promise.race([server.first, run.exited.then(() => Promise.reject(new Error(`sync exited early: ${run.err()}`)))]);
    const sentAt = Date.now();
    run.proc.kill('SIGINT');
    const { code, at } = await run.exited;
    expect(at - sentAt).toBeLessThan(1000);
    expect(code).toBe(130);
    expect(run.err().trim().split('\n').at(-1)).toBe('stopped: the sync was interrupted; changes not yet pushed stay pending');
    expect(run.out()).toBe('');
  });

  it('ends `strata ask` within a second of SIGINT while the model has not answered, exit 130', async () => {
    const fake: FakeAnthropic = await startFakeAnthropic({ strict: true });
    closers.push(() => fake.close());
    fake.enqueue(text('too late', { firstByteDelayMs: 60_000 }));
    const dir = await tempDir();
    const project = path.join(dir, 'project');
    await fs.mkdir(project);

    const run = strata(['ask', '--project', project, '--vault', path.join(dir, 'vault'), '--no-memory', 'Say hello'], {
      ANTHROPIC_API_KEY: 'sk-ant-cli',
      ANTHROPIC_BASE_URL: fake.url,
      STRATA_APP_DATA: path.join(dir, 'app-data'),
    });
    while (fake.requests.length === 0) {
      if (run.proc.exitCode !== null) throw new Error(`ask exited early: ${run.err()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const sentAt = Date.now();
    run.proc.kill('SIGINT');
    const { code, at } = await run.exited;
    expect(at - sentAt).toBeLessThan(1000);
    expect(code).toBe(130);
    expect(run.err().trim().split('\n').at(-1)).toBe('strata ask: stopped by SIGINT');
    expect(run.out()).toBe('');
  });

  it('aborts the command at the first SIGTERM and exits at once at the second, even when the command is stuck', async () => {
    const run = strata([], {}, path.join(path.dirname(child), 'stubborn-child.ts'));
    while (!run.out().includes('ready\n')) {
      if (run.proc.exitCode !== null) throw new Error(`exited early: ${run.err()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    run.proc.kill('SIGTERM');
    while (!run.out().includes('aborted')) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.out()).toContain('aborted: stopped by SIGTERM');
    expect(run.proc.exitCode).toBeNull();
    const sentAt = Date.now();
    run.proc.kill('SIGTERM');
    const { code, at } = await run.exited;
    expect(code).toBe(143);
    expect(at - sentAt).toBeLessThan(500);
  });
});
