import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../common/config.js';
import { memoryTypeOf, parseMemoryFile } from '../../../common/memory-file/index.js';
import { MemoryStore } from '../../../main/core/auto-memory/memory-store.js';
import { formatManifest, scanMemoryFiles } from '../../../main/core/auto-memory/memory-files.js';
import { trickyMemories, type TrickyMemory } from '../../fixtures/memory-files/tricky-memories.js';
import { tempDir } from '../../support/temp-dir.js';
import { openVault } from '../../main/core/vault/vault-helpers.js';

const MEM = 'projects/-home-ana-app/memory';

/** The one answer: what every reader must say about a fixture. */
const answer = (f: TrickyMemory) => ({ name: f.name, description: f.description, type: memoryTypeOf(f.type) });

async function vaultWithFixtures() {
  const root = await tempDir('strata-one-reading-');
  await fs.mkdir(path.join(root, MEM), { recursive: true });
  for (const f of trickyMemories) await fs.writeFile(path.join(root, MEM, f.file), f.text);
  return root;
}

describe('every reader gives one answer for the same twenty tricky memory files', () => {
  it('has twenty fixtures, each with a distinct file name', () => {
    expect(new Set(trickyMemories.map((f) => f.file)).size).toBe(20);
  });

  it.each(trickyMemories)('parseMemoryFile: $file ($why)', (f) => {
    const parsed = parseMemoryFile(f.text);
    expect({ name: parsed.name, description: parsed.description, type: parsed.type }).toEqual(answer(f));
    expect(parsed.rawType).toBe(f.type);
    expect(parsed.hasFrontmatter).toBe(f.hasFrontmatter ?? true);
    expect(parsed.flags.includes('malformed-frontmatter')).toBe(f.error === true);
    expect(parsed.originSessionId).toBe(f.originSessionId ?? null);
    expect(parsed.body).toContain(f.bodyWord);
    if (f.hasFrontmatter !== false) expect(parsed.body).not.toMatch(/^(name|description|type):/m);
  });

  it('the memory store, extractor and recall scan (whole files and capped heads) agree', async () => {
    const root = await vaultWithFixtures();
    for (const maxBytes of [undefined, 4096]) {
      const files = await scanMemoryFiles(path.join(root, MEM), { maxBytes });
      expect(files).toHaveLength(trickyMemories.length);
      for (const f of trickyMemories) {
        const got = files.find((m) => m.relPath === f.file)!;
        expect({ file: f.file, name: got.name, description: got.description, type: got.type }).toEqual({ file: f.file, ...answer(f) });
      }
      // The recall manifest (docs/memory.md#recall) names each known type and description as read.
      const manifest = formatManifest(files);
      for (const f of trickyMemories) {
        const line = manifest.split('\n').find((l) => l.includes(` ${f.file} (`))!;
        const type = memoryTypeOf(f.type);
        expect(line.startsWith(type && type !== 'untyped' ? `- [${type}] ` : `- ${f.file}`)).toBe(true);
        expect(line.endsWith(f.description ? `: ${f.description}` : ')')).toBe(true);
      }
    }
  });

  it('the vault listing, the file view and search agree, and only really broken files carry an error', async () => {
    const { vault } = await openVault(await vaultWithFixtures());
    for (const f of trickyMemories) {
      const rel = `${MEM}/${f.file}`;
      const meta = vault.list().find((m) => m.path === rel)!;
      expect({ file: f.file, title: meta.title, description: meta.description, type: meta.type }).toEqual({
        file: f.file,
        title: f.name ?? f.file,
        description: f.description,
        type: memoryTypeOf(f.type),
      });
      const broken = f.error === true || f.hasFrontmatter === false || !f.name || !f.description;
      expect({ file: f.file, error: meta.error !== null }).toEqual({ file: f.file, error: broken });
      const view = await vault.read(rel);
      expect(view.frontmatterError).toBe(meta.error);
      if (f.hasFrontmatter !== false && !f.error) {
        expect(view.frontmatter).toMatchObject({ name: f.name ?? '', description: f.description ?? '', type: f.type ?? '' });
        expect(view.frontmatter?.originSessionId ?? null).toBe(f.originSessionId ?? null);
      }
      expect(view.body).toContain(f.bodyWord);
      if (f.description) {
        const hits = vault.search(f.description.split(/\s+/).slice(-2).join(' '));
        expect(hits.map((h) => h.path)).toContain(rel);
      }
    }
  });
});

describe('MEMORY.md: the store and the vault read the same pointers', () => {
  const index = [
    '# Memory',
    '- [Tabs](plain.md) — tabs always',
    '* [Spaces in the name](<my notes.md>) - angle brackets',
    '+ [Escaped \\[brackets\\]](escaped%20name.md): percent-encoded',
    '- [Relative](./colon.md "a link title")',
    '- [Gone](missing.md) — a pointer to nothing',
    '- [A web page](https://example.com/x.md) — not a memory',
    'Prose that mentions [a link](plain.md) is not a pointer.',
  ].join('\r\n');

  it('parses targets, titles and hooks once, and flags the same broken pointer', async () => {
    const root = await tempDir('strata-one-index-');
    await fs.mkdir(path.join(root, MEM), { recursive: true });
    for (const f of ['plain.md', 'my notes.md', 'escaped name.md', 'colon.md']) {
      await fs.writeFile(path.join(root, MEM, f), '---\nname: x\ndescription: y\ntype: user\n---\nz\n');
    }
    await fs.writeFile(path.join(root, MEM, 'MEMORY.md'), index);
    const store = await new MemoryStore(path.join(root, MEM), defaultMemoryConfig.autoMemory).readIndex();
    const { vault } = await openVault(root);
    const view = await vault.memoryIndex('-home-ana-app', false);
    const expected = [
      { line: 2, title: 'Tabs', target: 'plain.md', hook: 'tabs always', broken: false },
      { line: 3, title: 'Spaces in the name', target: 'my notes.md', hook: 'angle brackets', broken: false },
      { line: 4, title: 'Escaped [brackets]', target: 'escaped name.md', hook: 'percent-encoded', broken: false },
      { line: 5, title: 'Relative', target: 'colon.md', hook: '', broken: false },
      { line: 6, title: 'Gone', target: 'missing.md', hook: 'a pointer to nothing', broken: true },
    ];
    expect(store.entries).toEqual(expected);
    expect(view.lines).toEqual(expected);
    expect(store.missing).toEqual([]);
    expect(view.missing).toEqual([]);
  });
});
