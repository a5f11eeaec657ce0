import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { ProjectPaths } from '../../../../main/core/paths/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { canarySecret, freshRepo } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/** `strata sync` (docs/architecture.md): one pull + push, JSON report, exit 1 on a conflict or a blocked file. */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-cli-db-');
});

afterAll(() => server.close());

function io(env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env, stopped: new Promise(() => undefined) };
  return { cli, out, err };
}

async function project(remote: string | null): Promise<string> {
  const dir = await tempDir('strata-cli-project-');
  if (remote) {
    await fs.mkdir(path.join(dir, '.git'));
    await fs.writeFile(path.join(dir, '.git', 'config'), `[remote "origin"]\n\turl = ${remote}\n`);
  }
  return dir;
}

describe('strata sync', () => {
  it('pushes, prints the JSON report, and exits 1 with the rule and line of a blocked file', async () => {
    const repo = freshRepo();
    const token = await server.member([repo]);
    const dir = await project(`https://github.com/${repo}.git`);
    const vault = await tempDir('strata-cli-vault-');
    const teamDir = (await ProjectPaths.resolve(vault, dir)).teamMemoryDir;
    await fs.mkdir(teamDir, { recursive: true });
    await fs.writeFile(path.join(teamDir, 'ok.md'), 'fine\n');
    await fs.writeFile(path.join(teamDir, 'v1..v2.md'), 'a name the server refuses\n');
    const args = ['sync', '--project', dir, '--server', server.url, '--vault', vault, '--json'];

    const first = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, first.cli)).toBe(0);
    expect(JSON.parse(first.out[0]!)).toMatchObject({
      repo,
      pulled: 0,
      pushed: 1,
      conflicts: [],
      blocked: [],
      tooLarge: [],
      invalidNames: [{ path: path.join(teamDir, 'v1..v2.md'), reason: 'it contains ..' }],
      pending: [],
    });

    const secret = canarySecret();
    const other = canarySecret();
    await fs.writeFile(path.join(teamDir, 'keys.md'), `# keys\n\n${secret}\n${other}\n`);
    const second = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, second.cli)).toBe(1);
    const report = JSON.parse(second.out[0]!) as { blocked: unknown[] };
    const findings = [{ rule: 'github-pat', line: 3, column: 1 }, { rule: 'github-pat', line: 4, column: 1 }];
    expect(report.blocked).toEqual([{ path: path.join(teamDir, 'keys.md'), rule: 'github-pat', line: 3, findings }]);
    expect([...second.out, ...second.err].join('\n')).not.toContain(secret);

    // Without --json, one line per finding.
    const human = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args.filter((a) => a !== '--json'), human.cli)).toBe(1);
    expect(human.out.filter((l) => l.startsWith('blocked:'))).toEqual([3, 4].map((n) => `blocked: ${path.join(teamDir, 'keys.md')} line ${n} matches github-pat; not uploaded`));
    expect(human.out).toContain(`not synced: ${path.join(teamDir, 'v1..v2.md')}: the server refuses its name (it contains ..); rename it`);
    expect([...human.out, ...human.err].join('\n')).not.toContain(other);
  });

  it('lists restorable deletions and puts one back with --restore, which the same run pushes', async () => {
    const repo = freshRepo();
    const token = await server.member([repo]);
    const dir = await project(`git@github.com:${repo}.git`);
    const vault = await tempDir('strata-cli-vault-');
    const teamDir = (await ProjectPaths.resolve(vault, dir)).teamMemoryDir;
    await fs.mkdir(teamDir, { recursive: true });
    await fs.writeFile(path.join(teamDir, 'old.md'), 'old notes\n');
    const args = ['sync', '--project', dir, '--server', server.url, '--vault', vault, '--json'];
    expect(await runCli(args, io({ STRATA_TEAM_TOKEN: token }).cli)).toBe(0);

    await fs.rm(path.join(teamDir, 'old.md'));
    const removed = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, removed.cli)).toBe(0);
    expect(JSON.parse(removed.out[0]!)).toMatchObject({ pushed: 1, deleted: [{ key: 'old.md', by: 'local' }] });

    const restored = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli([...args, '--restore', 'old.md'], restored.cli)).toBe(0);
    expect(JSON.parse(restored.out[0]!)).toMatchObject({ pushed: 1, pending: [], deleted: [] });
    expect(await fs.readFile(path.join(teamDir, 'old.md'), 'utf8')).toBe('old notes\n');

    const again = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli([...args, '--restore', 'nope.md'], again.cli)).toBe(2);
    expect(again.err.join('\n')).toMatch(/nope\.md is not among the restorable deletions/);
  });

  it('says how to set the repository when the project has no remote (exit 2)', async () => {
    const dir = await project(null);
    const run = io({ STRATA_TEAM_TOKEN: 'whatever' });
    expect(await runCli(['sync', '--project', dir, '--server', server.url, '--vault', await tempDir()], run.cli)).toBe(2);
    expect(run.err.join('\n')).toMatch(/not in a git repository: set Repository \(owner\/name\) under Settings › This project \(the teamRepo setting\)/);
  });

  it('asks for a server when none is given or set (exit 2)', async () => {
    const run = io({ STRATA_TEAM_TOKEN: 'whatever' });
    expect(await runCli(['sync', '--project', await project(null), '--vault', await tempDir()], run.cli)).toBe(2);
    expect(run.err.join('\n')).toMatch(/pass --server URL or set teamServerUrl/);
  });
});
