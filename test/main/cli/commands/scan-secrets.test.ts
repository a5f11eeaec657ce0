import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../../main/cli/cli-io.js';
import { runCli } from '../../../../main/cli/index.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';
import { tempDir } from '../../../support/temp-dir.js';

const rng = new SeededRandom(11);

function fakeIo(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (l) => out.push(l), stderr: (l) => err.push(l), env: {}, stopped: new Promise(() => undefined) };
}

async function vaultWithOneSecret(): Promise<{ dir: string; token: string }> {
  const dir = await tempDir();
  const token = githubToken(rng, 'ghp');
  await fs.mkdir(path.join(dir, 'notes'));
  await fs.writeFile(path.join(dir, 'notes', 'a.md'), '# clean\n');
  await fs.writeFile(path.join(dir, 'notes', 'b.md'), `# deploy\n\nuse ${token}\n`);
  return { dir, token };
}

describe('strata scan-secrets', () => {
  it('prints every scanned file with rule and line as JSON and exits 1 on a finding', async () => {
    const { dir, token } = await vaultWithOneSecret();
    const io = fakeIo();
    const given = path.join(dir, 'notes');
    const code = await runCli(['scan-secrets', '--json', given], io);
    expect(code).toBe(1);
    expect(io.out).toHaveLength(1);
    expect(JSON.parse(io.out[0]!)).toEqual({
      files: [
        { path: path.join(given, 'a.md'), findings: [] },
        { path: path.join(given, 'b.md'), findings: [{ rule: 'github-pat', line: 3, column: 5 }] },
      ],
    });
    expect(io.out.join('\n')).not.toContain(token);
  });

  it('prints file:line:column rule in human output, never the value', async () => {
    const { dir, token } = await vaultWithOneSecret();
    const io = fakeIo();
    const file = path.join(dir, 'notes', 'b.md');
    expect(await runCli(['scan-secrets', file], io)).toBe(1);
    expect(io.out[0]).toBe(`${file}:3:5 github-pat`);
    expect(io.out.join('\n')).not.toContain(token);
  });

  it('exits 0 when nothing is found', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'a.md'), 'password: changeme\n');
    const io = fakeIo();
    expect(await runCli(['scan-secrets', '--json', dir], io)).toBe(0);
    expect(JSON.parse(io.out[0]!)).toEqual({ files: [{ path: path.join(dir, 'a.md'), findings: [] }] });
  });

  it('exits 2 with one stderr line when no path is given', async () => {
    const io = fakeIo();
    expect(await runCli(['scan-secrets', '--json'], io)).toBe(2);
    expect(io.err).toHaveLength(1);
    expect(io.out).toEqual([]);
  });

  it('exits 2 with one stderr line naming a missing path', async () => {
    const dir = await tempDir();
    const io = fakeIo();
    const missing = path.join(dir, 'nope.md');
    expect(await runCli(['scan-secrets', dir, missing], io)).toBe(2);
    expect(io.err).toEqual([`strata scan-secrets: no such file or folder: ${missing}`]);
    expect(io.out).toEqual([]);
  });

  it('exits 2 on an unknown flag', async () => {
    const io = fakeIo();
    expect(await runCli(['scan-secrets', '--deep', '.'], io)).toBe(2);
    expect(io.err).toHaveLength(1);
  });

  it('honours a strata:allow comment on the finding\'s line only', async () => {
    const dir = await tempDir();
    const vault = await tempDir();
    const token = githubToken(rng, 'ghp');
    const file = path.join(dir, 'a.md');
    await fs.writeFile(file, `# demo\n\nexample output: ${token} <!-- strata:allow -->\n`);
    const io = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, file], io)).toBe(0);
    await fs.appendFile(file, `again: ${token}\n`);
    const again = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, '--json', file], again)).toBe(1);
    expect(JSON.parse(again.out[0]!)).toEqual({ files: [{ path: file, findings: [{ rule: 'github-pat', line: 4, column: 8 }] }] });
  });

  it('marks a finding as not a secret in the vault with --not-a-secret FILE:LINE:RULE; later scans with that vault skip it', async () => {
    const { dir, token } = await vaultWithOneSecret();
    const vault = await tempDir();
    const file = path.join(dir, 'notes', 'b.md');
    const first = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, file], first)).toBe(1);
    expect(first.out.at(-1)).toMatch(/--not-a-secret FILE:LINE:COLUMN:RULE/);

    const mark = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, '--not-a-secret', `${file}:3:github-pat`], mark)).toBe(0);
    expect(mark.out).toEqual([`marked github-pat at line 3 of ${file} as not a secret (revoke it in Settings)`]);

    const after = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, file], after)).toBe(0);
    // The same file in a vault without that allowance still reports it.
    expect(await runCli(['scan-secrets', '--vault', await tempDir(), file], fakeIo())).toBe(1);
    const stored = await fs.readFile(path.join(vault, '.strata', 'secret-allowances.json'), 'utf8');
    expect(stored).not.toContain(token.slice(4, 20));
    expect([...first.out, ...mark.out, ...after.out].join('\n')).not.toContain(token);
  });

  it('--not-a-secret FILE:LINE:COLUMN:RULE marks one value: the real key beside a marked decoy is still reported', async () => {
    const dir = await tempDir();
    const vault = await tempDir();
    const decoy = githubToken(rng, 'ghp');
    const real = githubToken(rng, 'ghp');
    const file = path.join(dir, 'a.md');
    await fs.writeFile(file, `decoy ${decoy} real ${real}\n`);
    const first = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, file], first)).toBe(1);
    const decoyAt = 'decoy '.length + 1;
    const realAt = `decoy ${decoy} real `.length + 1;
    expect(first.out.slice(0, 2)).toEqual([`${file}:1:${decoyAt} github-pat`, `${file}:1:${realAt} github-pat`]);

    // Without the column the line is ambiguous: bad usage, nothing recorded.
    const vague = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, '--not-a-secret', `${file}:1:github-pat`], vague)).toBe(2);
    expect(vague.err).toEqual([`strata scan-secrets: rule github-pat finds 2 values on line 1: say which by its column (FILE:LINE:COLUMN:RULE, as a scan prints it)`]);

    const mark = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, '--not-a-secret', `${file}:1:${decoyAt}:github-pat`], mark)).toBe(0);
    expect(mark.out).toEqual([`marked github-pat at line 1, column ${decoyAt} of ${file} as not a secret (revoke it in Settings)`]);
    const after = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, '--json', file], after)).toBe(1);
    expect(JSON.parse(after.out[0]!)).toEqual({ files: [{ path: file, findings: [{ rule: 'github-pat', line: 1, column: realAt }] }] });
  });

  it('exits 2 when --not-a-secret names no finding, an unknown rule, or a malformed spec', async () => {
    const { dir } = await vaultWithOneSecret();
    const vault = await tempDir();
    const file = path.join(dir, 'notes', 'b.md');
    for (const spec of [`${file}:1:github-pat`, `${file}:3:no-such-rule`, 'b.md-line-3']) {
      const io = fakeIo();
      expect(await runCli(['scan-secrets', '--vault', vault, '--not-a-secret', spec], io), spec).toBe(2);
      expect(io.err).toHaveLength(1);
    }
    await expect(fs.stat(path.join(vault, '.strata', 'secret-allowances.json'))).rejects.toThrow();
  });

  it('exits 2 naming the allowance list when it is damaged, and leaves it as it was', async () => {
    const { dir } = await vaultWithOneSecret();
    const vault = await tempDir();
    await fs.mkdir(path.join(vault, '.strata'));
    await fs.writeFile(path.join(vault, '.strata', 'secret-allowances.json'), '{ not json');
    const io = fakeIo();
    expect(await runCli(['scan-secrets', '--vault', vault, dir], io)).toBe(2);
    expect(io.err.join('\n')).toMatch(/Not a secret" list cannot be read/);
    expect(await fs.readFile(path.join(vault, '.strata', 'secret-allowances.json'), 'utf8')).toBe('{ not json');
  });
});
