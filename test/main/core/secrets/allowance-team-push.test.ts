import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../main/cli/index.js';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { ProjectPaths } from '../../../../main/core/paths/index.js';
import { memoryWriteGuard } from '../../../../main/core/auto-memory/write-guard.js';
import { allowancesFile, SecretAllowanceStore } from '../../../../main/core/secrets/index.js';
import { createServices } from '../../../../main/core/services.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { canarySecret, freshRepo } from '../team-sync/sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from '../team-sync/sync-server.js';

/**
 * "Not a secret" for a team push, against the real team server: a file held back by the scanner is
 * marked from the team panel's action (the IPC channel it calls), and the next sync uploads it.
 */
let server: SyncServer;
beforeAll(async () => {
  server = await startSqliteSyncServer('strata-allow-push-db-');
});
afterAll(() => server.close());

function io(env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env, stopped: new Promise(() => undefined) };
  return { cli, out, err };
}

async function teamProject(): Promise<{ repo: string; token: string; project: string; vault: string; teamDir: string }> {
  const repo = freshRepo();
  const token = await server.member([repo]);
  const project = await tempDir('strata-allow-push-project-');
  await fs.mkdir(path.join(project, '.git'));
  await fs.writeFile(path.join(project, '.git', 'config'), `[remote "origin"]\n\turl = https://github.com/${repo}.git\n`);
  const vault = await tempDir('strata-allow-push-vault-');
  const teamDir = (await ProjectPaths.resolve(vault, project)).teamMemoryDir;
  await fs.mkdir(teamDir, { recursive: true });
  return { repo, token, project, vault, teamDir };
}

describe('"Not a secret" for a team push', () => {
  it('holds the file back, the user marks the finding, the next sync uploads it; the value is in no log or allowance', async () => {
    const { token, project, vault, teamDir } = await teamProject();
    const value = canarySecret();
    const other = canarySecret();
    await fs.writeFile(path.join(teamDir, 'training.md'), `# Security training\n\nThe deliberately leaked token in the exercise: ${value}\n`);
    const args = ['sync', '--project', project, '--server', server.url, '--vault', vault, '--json'];

    const held = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, held.cli)).toBe(1);
    const report = JSON.parse(held.out[0]!) as { blocked: { path: string; rule: string; line: number }[] };
    expect(report.blocked).toMatchObject([{ rule: 'github-pat', line: 3 }]);

    const log = testLogger();
    const services = await createServices({ appDataDir: await tempDir('strata-allow-push-app-'), vaultRoot: vault, shell: 'cli', watch: false, logger: log.logger });
    try {
      const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
      const relative = path.relative(vault, report.blocked[0]!.path).split(path.sep).join('/');
      // A line the rule finds nothing on is refused, and records nothing.
      expect(await dispatch('secrets:allow-in-file', { path: relative, line: 1, rule: 'github-pat', where: 'team push' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
      // A path out of the vault is refused by the schema.
      expect(await dispatch('secrets:allow-in-file', { path: '../etc/passwd', line: 1, rule: 'github-pat', where: 'team push' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
      const marked = await dispatch('secrets:allow-in-file', { path: relative, line: 3, rule: 'github-pat', where: 'team push' });
      expect(marked).toMatchObject({ ok: true, value: [{ rule: 'github-pat', where: `team push: ${relative}` }] });
      for (const l of log.entries) expect(JSON.stringify(l)).not.toContain(value);
    } finally {
      await services.close();
    }

    const pushed = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, pushed.cli)).toBe(0);
    expect(JSON.parse(pushed.out[0]!)).toMatchObject({ pushed: 1, blocked: [] });

    // Only that value is allowed: another secret in the same file holds it back again.
    await fs.appendFile(path.join(teamDir, 'training.md'), `and ${other}\n`);
    const again = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, again.cli)).toBe(1);
    expect((JSON.parse(again.out[0]!) as { blocked: { line: number }[] }).blocked).toMatchObject([{ line: 4 }]);

    const stored = await fs.readFile(allowancesFile(vault), 'utf8');
    for (const secret of [value, other]) {
      expect(stored).not.toContain(secret.slice(4, 20));
      expect([...held.out, ...held.err, ...pushed.out, ...pushed.err, ...again.out, ...again.err].join('\n')).not.toContain(secret);
    }
  });

  it('marks one value: a decoy marked beside a real key on the same line leaves the key holding the file back', async () => {
    const { token, project, vault, teamDir } = await teamProject();
    const decoy = canarySecret();
    const real = canarySecret();
    const line = `The exercise's decoy ${decoy} and, pasted by mistake, the deploy token ${real}`;
    await fs.writeFile(path.join(teamDir, 'training.md'), `# Security training\n\n${line}\n`);
    const args = ['sync', '--project', project, '--server', server.url, '--vault', vault, '--json'];
    type Report = { blocked: { path: string; findings: { rule: string; line: number; column?: number }[] }[] };

    const held = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, held.cli)).toBe(1);
    const report = JSON.parse(held.out[0]!) as Report;
    const decoyAt = line.indexOf(decoy) + 1;
    const realAt = line.indexOf(real) + 1;
    // Each value is its own finding, so the panel offers "Not a secret" for each.
    expect(report.blocked[0]!.findings).toEqual([
      { rule: 'github-pat', line: 3, column: decoyAt },
      { rule: 'github-pat', line: 3, column: realAt },
    ]);

    const log = testLogger();
    const services = await createServices({ appDataDir: await tempDir('strata-allow-push-app-'), vaultRoot: vault, shell: 'cli', watch: false, logger: log.logger });
    try {
      const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
      const relative = path.relative(vault, report.blocked[0]!.path).split(path.sep).join('/');
      // Without a column the line holds two values: refused, not guessed, and nothing is recorded.
      expect(await dispatch('secrets:allow-in-file', { path: relative, line: 3, rule: 'github-pat', where: 'team push' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
      expect(await dispatch('secrets:list-allowances', {})).toEqual({ ok: true, value: [] });
      const marked = await dispatch('secrets:allow-in-file', { path: relative, line: 3, column: decoyAt, rule: 'github-pat', where: 'team push' });
      expect(marked).toMatchObject({ ok: true, value: [{ rule: 'github-pat' }] });
      expect((marked as { value: unknown[] }).value).toHaveLength(1);

      // A memory write of the same line, through the guard the agent's writes go through, is still refused,
      // for the real key alone.
      const memory = path.join(vault, 'projects', 'p', 'memory');
      await fs.mkdir(memory, { recursive: true });
      const allowances = SecretAllowanceStore.forVault(vault);
      const guard = memoryWriteGuard({ memoryDirs: [memory], scan: (t) => allowances.scan(t, { fingerprints: true }) });
      const check = await guard.check({ path: path.join(memory, 'training.md'), content: `${line}\n` });
      expect(check.ok).toBe(false);
      expect([...JSON.stringify(check).matchAll(/rule github-pat on line 1/g)]).toHaveLength(1);
    } finally {
      await services.close();
    }

    const again = io({ STRATA_TEAM_TOKEN: token });
    expect(await runCli(args, again.cli)).toBe(1);
    expect((JSON.parse(again.out[0]!) as Report).blocked[0]!.findings).toEqual([{ rule: 'github-pat', line: 3, column: realAt }]);
    expect([...held.out, ...again.out].join('\n')).not.toContain(real);
  });
});
