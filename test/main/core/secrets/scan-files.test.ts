import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../common/result.js';
import { scanFile, scanPaths } from '../../../../main/core/secrets/index.js';
import { generateFixtures } from '../../../fixtures/secrets/generate.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';
import { tempDir } from '../../../support/temp-dir.js';

const rng = new SeededRandom(77);

describe('scanFile', () => {
  it('reports rule, line and column, never the value, for a text file', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'note.md');
    await fs.writeFile(file, `# Note\n\nGITHUB_TOKEN=${githubToken(rng, 'ghp')}\n`);
    expect(await scanFile(file)).toEqual({ path: file, findings: [{ rule: 'github-pat', line: 3, column: 14 }] });
  });

  it('lists a binary file with no findings and says it was skipped', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'image.png');
    await fs.writeFile(file, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), Buffer.from(`ghp ${githubToken(rng, 'ghp')}`)]));
    expect(await scanFile(file)).toEqual({ path: file, findings: [], skipped: 'binary' });
  });

  it('finds the same secrets on the same lines when a large file is read in small chunks', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'big.md');
    const { positives } = generateFixtures();
    await fs.writeFile(file, positives.map((p) => p.text).join('\n\n'));
    const whole = await scanFile(file, { chunkBytes: 64 * 1024 * 1024 });
    const chunked = await scanFile(file, { chunkBytes: 4096 });
    expect(whole.findings.length).toBeGreaterThan(300);
    expect(chunked.findings).toEqual(whole.findings);
  });

  it('marks a file it cannot read as unreadable instead of clean', async () => {
    const dir = await tempDir();
    expect(await scanFile(path.join(dir, 'gone.md'))).toEqual({ path: path.join(dir, 'gone.md'), findings: [], skipped: 'unreadable' });
  });
});

describe('scanPaths', () => {
  it('walks folders recursively in name order and lists every scanned file with paths as given', async () => {
    const dir = await tempDir();
    await fs.mkdir(path.join(dir, 'notes', 'deep'), { recursive: true });
    await fs.writeFile(path.join(dir, 'notes', 'b.md'), 'nothing secret here\n');
    await fs.writeFile(path.join(dir, 'notes', 'deep', 'a.env'), `x=1\nNPM_TOKEN=npm_${rng.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 36)}\n`);
    await fs.writeFile(path.join(dir, 'top.md'), 'plain\n');
    const given = path.join(dir, 'notes') + '/';
    const results = await scanPaths([given, path.join(dir, 'top.md')]);
    expect(results).toEqual([
      { path: `${given}b.md`, findings: [] },
      { path: `${given}deep${path.sep}a.env`, findings: [{ rule: 'npm-access-token', line: 2, column: 11 }] },
      { path: path.join(dir, 'top.md'), findings: [] },
    ]);
  });

  it('never follows symlinks inside a folder, and lists a symlink given directly as skipped', async () => {
    const dir = await tempDir();
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'secret.env'), `GITHUB_TOKEN=${githubToken(rng, 'ghp')}\n`);
    await fs.mkdir(path.join(dir, 'vault'));
    await fs.writeFile(path.join(dir, 'vault', 'ok.md'), 'fine\n');
    await fs.symlink(path.join(outside, 'secret.env'), path.join(dir, 'vault', 'link.env'));
    await fs.symlink(outside, path.join(dir, 'vault', 'linkdir'));
    await fs.symlink(path.join(dir, 'vault'), path.join(dir, 'vault', 'loop'));
    const results = await scanPaths([path.join(dir, 'vault'), path.join(dir, 'vault', 'link.env')]);
    expect(results).toEqual([
      { path: path.join(dir, 'vault', 'ok.md'), findings: [] },
      { path: path.join(dir, 'vault', 'link.env'), findings: [], skipped: 'symlink' },
    ]);
  });

  it('throws not_found for a missing path before scanning anything', async () => {
    const dir = await tempDir();
    const error = await scanPaths([dir, path.join(dir, 'missing')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppFailure);
    expect((error as AppFailure).code).toBe('not_found');
  });
});
