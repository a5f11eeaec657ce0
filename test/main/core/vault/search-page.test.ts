import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

const MEM = 'projects/p1/memory';

describe('search results say how many there are; the listing sorts naturally', () => {
  it('pages through 120 results with their total, and lists note 104 before note 1001', async () => {
    const r = await tempDir('strata-search-page-');
    await fs.mkdir(path.join(r, MEM), { recursive: true });
    for (let i = 0; i < 120; i++) await fs.writeFile(path.join(r, MEM, `note ${i * 9 + 95}.md`), memoryText(`Note ${i}`, `kiwi fact ${i}`, `Kiwis ${i}.`));
    const { vault } = await openVault(r);
    const first = vault.searchPage('kiwi', { limit: 50 });
    expect(first.total).toBe(120);
    expect(first.hits).toHaveLength(50);
    const last = vault.searchPage('kiwi', { limit: 50, offset: 100 });
    expect(last).toMatchObject({ total: 120 });
    expect(last.hits).toHaveLength(20);
    const pages = [first, vault.searchPage('kiwi', { limit: 50, offset: 50 }), last].flatMap((p) => p.hits.map((h) => h.path));
    expect(new Set(pages).size).toBe(120);
    expect(vault.search('kiwi', { limit: 50 })).toEqual(first.hits);
    const names = vault.list().map((m) => m.path.split('/').at(-1)!);
    expect(names.indexOf('note 104.md')).toBeLessThan(names.indexOf('note 1004.md'));
    expect(names.indexOf('note 95.md')).toBe(0);
  });
});
