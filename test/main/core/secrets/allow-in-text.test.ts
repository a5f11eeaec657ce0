import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SecretAllowanceStore } from '../../../../main/core/secrets/index.js';
import { githubToken, SeededRandom } from '../../../fixtures/secrets/seeded-random.js';
import { tempDir } from '../../../support/temp-dir.js';

/** `allowInText`, the mark the team panel and `strata scan-secrets --not-a-secret` make: one mark, one value. */
describe('SecretAllowanceStore.allowInText', () => {
  const rng = new SeededRandom(7);
  const decoy = githubToken(rng, 'ghp');
  const real = githubToken(rng, 'ghp');
  const text = `# Notes\n\ndecoy ${decoy} real ${real}\n`;
  const line = text.split('\n')[2]!;
  const column = (value: string) => line.indexOf(value) + 1;

  it('marks the value at the given column only; the real key beside it is still reported', async () => {
    const store = SecretAllowanceStore.forVault(await tempDir('strata-allow-one-'));
    expect(await store.allowInText(text, { rule: 'github-pat', line: 3, column: column(decoy), where: 'test' })).toBe(1);
    expect(store.list()).toHaveLength(1);
    expect(store.scan(text)).toMatchObject([{ rule: 'github-pat', line: 3, column: column(real) }]);
    // The same value elsewhere is the same value: allowed there too.
    expect(store.scan(`${decoy}\n`)).toEqual([]);
  });

  it('refuses a line with two values and no column, recording nothing; one value needs no column', async () => {
    const store = SecretAllowanceStore.forVault(await tempDir('strata-allow-one-'));
    await expect(store.allowInText(text, { rule: 'github-pat', line: 3, where: 'test' })).rejects.toThrow(/2 values on line 3/);
    expect(store.list()).toEqual([]);
    expect(await store.allowInText(`x ${real} and ${real} again\n`, { rule: 'github-pat', line: 1, where: 'test' })).toBe(1);
    expect(store.scan(text)).toMatchObject([{ column: column(decoy) }]);
  });

  it('records nothing, and makes no file, where the rule finds nothing', async () => {
    const root = await tempDir('strata-allow-one-');
    const store = SecretAllowanceStore.forVault(root);
    expect(await store.allowInText(text, { rule: 'github-pat', line: 3, column: 2, where: 'test' })).toBe(0);
    expect(await store.allowInText(text, { rule: 'github-pat', line: 1, where: 'test' })).toBe(0);
    await expect(fs.stat(path.join(root, '.strata'))).rejects.toThrow();
    expect(store.list()).toEqual([]);
  });
});
