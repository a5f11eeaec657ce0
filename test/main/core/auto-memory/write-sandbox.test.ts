import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMemoryWrite } from '../../../../main/core/auto-memory/write-sandbox.js';
import { memoryWriteGuard } from '../../../../main/core/auto-memory/write-guard.js';
import { tempDir } from '../../../support/temp-dir.js';

/** A vault-like tree: <root>/projects/p/memory (the sandbox), <root>/projects/p/outside, <root>/secret.txt. */
async function tree() {
  const root = await tempDir('strata-sandbox-');
  const project = path.join(root, 'projects', 'p');
  const memory = path.join(project, 'memory');
  const outside = path.join(project, 'outside');
  await fs.mkdir(path.join(memory, 'sub'), { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(root, 'secret.txt'), 'original');
  await fs.writeFile(path.join(memory, 'existing.md'), '---\nname: e\n---\nbody\n');
  return { root, project, memory, outside };
}

async function snapshot(dir: string, skip: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (p === skip) continue;
      out.push(`${p}:${e.isSymbolicLink() ? 'link' : e.isDirectory() ? 'dir' : await fs.readFile(p, 'utf8')}`);
      if (e.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
  return out.sort();
}

type Setup = Awaited<ReturnType<typeof tree>>;

const hostile: { name: string; prepare?: (t: Setup) => Promise<void>; path: (t: Setup) => string }[] = [
  { name: 'a `..` segment climbing out', path: (t) => `${t.memory}/../outside/x.md` },
  { name: 'a `..` segment that comes back in', path: (t) => `${t.memory}/sub/../existing.md` },
  { name: 'a relative `..` path', path: () => '../outside/x.md' },
  { name: 'an absolute path elsewhere', path: (t) => path.join(t.root, 'secret.txt') },
  { name: 'an absolute path in a sibling folder with the memory folder as a prefix', path: (t) => `${t.memory}-evil/x.md` },
  { name: 'a NUL byte', path: (t) => `${t.memory}/x.md\0.txt` },
  { name: 'fullwidth dots disguising `..`', path: (t) => `${t.memory}/\uFF0E\uFF0E/outside/x.md` },
  { name: 'a two-dot leader disguising `..`', path: (t) => `${t.memory}/\u2025/outside/x.md` },
  { name: 'a fullwidth solidus disguising a separator', path: (t) => `${t.memory}/..\uFF0Foutside/x.md` },
  { name: 'a backslash path', path: () => '..\\outside\\x.md' },
  { name: 'the memory folder itself', path: (t) => t.memory },
  {
    name: 'a sibling that differs only by case',
    prepare: async (t) => void (await fs.mkdir(path.join(t.project, 'Memory'))),
    path: (t) => path.join(t.project, 'Memory', 'x.md'),
  },
  { name: 'a missing sibling that differs only by case', path: (t) => path.join(t.project, 'MEMORY', 'x.md') },
  {
    name: 'a symlinked file pointing outside',
    prepare: (t) => fs.symlink(path.join(t.root, 'secret.txt'), path.join(t.memory, 'link.md')),
    path: (t) => path.join(t.memory, 'link.md'),
  },
  {
    name: 'a dangling symlink pointing outside',
    prepare: (t) => fs.symlink(path.join(t.outside, 'not-yet.md'), path.join(t.memory, 'dangling.md')),
    path: (t) => path.join(t.memory, 'dangling.md'),
  },
  {
    name: 'a dangling relative symlink climbing out',
    prepare: (t) => fs.symlink('../outside/new.md', path.join(t.memory, 'rel-dangling.md')),
    path: (t) => path.join(t.memory, 'rel-dangling.md'),
  },
  {
    name: 'a dangling symlink through a missing folder and `..`',
    prepare: (t) => fs.symlink('missing/../../../outside/new.md', path.join(t.memory, 'tricky.md')),
    path: (t) => path.join(t.memory, 'tricky.md'),
  },
  {
    name: 'a symlinked folder pointing outside',
    prepare: (t) => fs.symlink(t.outside, path.join(t.memory, 'dir-link')),
    path: (t) => path.join(t.memory, 'dir-link', 'x.md'),
  },
  {
    name: 'a chain of symlinks ending outside',
    prepare: async (t) => {
      await fs.symlink(path.join(t.root, 'secret.txt'), path.join(t.memory, 'sub', 'hop2'));
      await fs.symlink('sub/hop2', path.join(t.memory, 'hop1.md'));
    },
    path: (t) => path.join(t.memory, 'hop1.md'),
  },
  {
    name: 'a symlink loop',
    prepare: async (t) => {
      await fs.symlink('loop-b', path.join(t.memory, 'loop-a'));
      await fs.symlink('loop-a', path.join(t.memory, 'loop-b'));
    },
    path: (t) => path.join(t.memory, 'loop-a', 'x.md'),
  },
  {
    name: 'a hard link to a file outside',
    prepare: (t) => fs.link(path.join(t.root, 'secret.txt'), path.join(t.memory, 'hard.md')),
    path: (t) => path.join(t.memory, 'hard.md'),
  },
  { name: 'an empty path', path: () => '' },
];

describe('checkMemoryWrite', () => {
  it.each(hostile)('denies $name and creates nothing outside', async (c) => {
    const t = await tree();
    await c.prepare?.(t);
    const before = await snapshot(t.root, t.memory);
    const result = await checkMemoryWrite(t.memory, c.path(t));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeGreaterThan(5);
    expect(await snapshot(t.root, t.memory)).toEqual(before);
    expect(await fs.readFile(path.join(t.root, 'secret.txt'), 'utf8')).toBe('original');
  });

  it('allows a new file, an existing file, a file in a new subfolder and a relative name', async () => {
    const t = await tree();
    for (const p of [path.join(t.memory, 'new.md'), path.join(t.memory, 'existing.md'), path.join(t.memory, 'deep', 'er', 'x.md'), 'feedback_tabs.md', 'MEMORY.md']) {
      const result = await checkMemoryWrite(t.memory, p);
      expect(result, p).toMatchObject({ ok: true });
      if (result.ok) expect(result.realPath.startsWith(t.memory + path.sep)).toBe(true);
    }
  });

  it('allows a symlink that stays inside the folder and returns its real target', async () => {
    const t = await tree();
    await fs.symlink('sub', path.join(t.memory, 'alias'));
    const result = await checkMemoryWrite(t.memory, path.join(t.memory, 'alias', 'x.md'));
    expect(result).toEqual({ ok: true, realPath: path.join(t.memory, 'sub', 'x.md') });
  });

  it('accepts a memory folder reached through a symlinked vault', async () => {
    const t = await tree();
    const link = path.join(t.root, 'vault-link');
    await fs.symlink(t.project, link);
    const result = await checkMemoryWrite(path.join(link, 'memory'), path.join(link, 'memory', 'x.md'));
    expect(result).toEqual({ ok: true, realPath: path.join(t.memory, 'x.md') });
  });

  it('denies a sibling whose name differs from the memory folder only by Unicode normalization', async () => {
    const t = await tree();
    const nfc = path.join(t.project, 'm\u00E9moire');
    const nfd = path.join(t.project, 'me\u0301moire');
    await fs.mkdir(nfc);
    for (const exists of [false, true]) {
      if (exists) await fs.mkdir(nfd);
      const result = await checkMemoryWrite(nfc, path.join(nfd, 'x.md'));
      expect(result.ok ? '' : result.reason).toMatch(/case or Unicode normalization/);
      const compat = await checkMemoryWrite(nfc, path.join(t.project, 'm\u00C9MOIRE', 'x.md'));
      expect(compat.ok).toBe(false);
    }
    expect(await fs.readdir(nfd)).toEqual([]);
  });

  it('names the case trick in its reason', async () => {
    const t = await tree();
    const result = await checkMemoryWrite(t.memory, path.join(t.project, 'Memory', 'x.md'));
    expect(result.ok ? '' : result.reason).toMatch(/case or Unicode normalization/);
  });
});

describe('names with control characters', () => {
  it.each([
    ['a line feed', 'user_role\n- [x](evil.md).md', 'U+000A'],
    ['a carriage return', 'user\rrole.md', 'U+000D'],
    ['an escape character', '\u001b[31mred.md', 'U+001B'],
    ['a control character', 'bell\u0007.md', 'U+0007'],
    ['a line separator', 'a\u2028b.md', 'U+2028'],
    ['a text-direction control', 'gpj\u202Eexe.md', 'U+202E'],
    ['a line feed', 'sub\nfolder/x.md', 'U+000A'],
  ])('refuses a write whose name holds %s', async (what, name, code) => {
    const t = await tree();
    const result = await checkMemoryWrite(t.memory, path.join(t.memory, name));
    expect(result).toEqual({ ok: false, reason: `the name ${JSON.stringify(name)} is not allowed: it contains ${what} (${code})` });
  });

  it('still lets a file already named so be read or deleted, so it can be cleared away', async () => {
    const t = await tree();
    const odd = path.join(t.memory, 'odd\nname.md');
    await fs.writeFile(odd, 'x');
    expect(await checkMemoryWrite(t.memory, odd, 'existing')).toEqual({ ok: true, realPath: odd });
    const guard = memoryWriteGuard({ memoryDirs: [t.memory], scan: () => [] });
    expect(await guard.check({ path: odd })).toEqual({ ok: true, realPath: odd });
    expect(await guard.check({ path: odd, content: 'y' })).toMatchObject({ ok: false });
  });
});

describe('memoryWriteGuard', () => {
  const scan = (text: string) => (text.includes('sk-live-') ? [{ rule: 'fake-key', line: text.split('\n').findIndex((l) => l.includes('sk-live-')) + 1 }] : []);

  it('refuses a write with a secret, naming the rule and line and never the value', async () => {
    const t = await tree();
    const guard = memoryWriteGuard({ memoryDirs: [t.memory], scan });
    const result = await guard.check({ path: path.join(t.memory, 'a.md'), content: 'line one\nkey sk-live-abcdef\n' });
    expect(result).toEqual({ ok: false, reason: 'rule fake-key on line 2 — leave the secret out and write the memory without it' });
  });

  it('allows a body without **Why:** lines and without frontmatter', async () => {
    const t = await tree();
    const guard = memoryWriteGuard({ memoryDirs: [t.memory], scan });
    expect(await guard.check({ path: path.join(t.memory, 'a.md'), content: 'just a fact, no shape at all' })).toMatchObject({ ok: true });
  });

  it('allows a delete (no content) inside and denies it outside', async () => {
    const t = await tree();
    const guard = memoryWriteGuard({ memoryDirs: [t.memory], scan });
    expect(await guard.check({ path: path.join(t.memory, 'existing.md') })).toMatchObject({ ok: true });
    expect(await guard.check({ path: path.join(t.root, 'secret.txt') })).toMatchObject({ ok: false });
  });

  it('accepts a second memory folder (team) and uses the scanner from main/core/secrets', async () => {
    const t = await tree();
    const team = path.join(t.memory, 'team');
    const { scanText } = await import('../../../../main/core/secrets/index.js');
    const guard = memoryWriteGuard({ memoryDirs: [t.outside, team], scan: scanText });
    expect(await guard.check({ path: path.join(team, 'x.md'), content: 'prefers tabs' })).toMatchObject({ ok: true });
    const pem = ['-----BEGIN RSA PRIVATE KEY-----', 'MIIEowIBAAKCAQEA1x9Qm3Z7kYt2vB8nR4pLw6sD0fH5jK2mN8qT1uV3wX6yZ9aB', '-----END RSA PRIVATE KEY-----'].join('\n');
    const refused = await guard.check({ path: path.join(team, 'x.md'), content: `note\n${pem}\n` });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.reason).toMatch(/^rule \S+ on line 2 — leave the secret out/);
  });
});
