import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { legacySlug, slug, stringHash32 } from '../../../../main/core/paths/slug.js';
import { ProjectPaths } from '../../../../main/core/paths/project-paths.js';
import { tempDir } from '../../../support/temp-dir.js';

/**
 * Claude Code's hash written independently: a Java-style String.hashCode over UTF-16 code units,
 * computed with BigInt and wrapped to signed 32 bits, so it shares no code with the source.
 */
function referenceHash(text: string): number {
  let h = 0n;
  for (let i = 0; i < text.length; i++) h = (h * 31n + BigInt(text.charCodeAt(i))) & 0xffffffffn;
  return Number(h >= 0x80000000n ? h - 0x100000000n : h);
}

const longPath = `/home/user/${Array.from({ length: 10 }, (_, i) => `deeply-nested-folder-${String(i).padStart(2, '0')}`).join('/')}`;

describe('slug (docs/memory.md#where-things-live, as Claude Code names project folders)', () => {
  it('hashes as Java String.hashCode does, over UTF-16 code units', () => {
    expect(stringHash32('')).toBe(0);
    expect(stringHash32('a')).toBe(97);
    expect(stringHash32('hello')).toBe(99162322);
    for (const text of ['/x', longPath, '/Users/zoë/café', '/tmp/日本語/😀', 'z'.repeat(500)]) expect(stringHash32(text)).toBe(referenceHash(text));
  });

  it('turns every UTF-16 code unit outside [A-Za-z0-9] into a dash for a short path', () => {
    expect(slug('/home/u/projects/strata')).toBe('-home-u-projects-strata');
    expect(slug('/Users/me/My Project.v2')).toBe('-Users-me-My-Project-v2');
    expect(slug('C:\\Users\\me\\app')).toBe('C--Users-me-app');
    expect(slug('/t/😀')).toBe('-t---');
  });

  it('takes the path in NFC, as Claude Code normalizes the folder it starts in', () => {
    expect(slug('/Users/zo\u00eb/caf\u00e9')).toBe('-Users-zo--caf-');
    expect(slug('/Users/zoe\u0308/cafe\u0301')).toBe('-Users-zo--caf-');
  });

  it('keeps a path of exactly 200 slug characters unchanged', () => {
    const p = `/${'a'.repeat(199)}`;
    expect(slug(p)).toBe(`-${'a'.repeat(199)}`);
  });

  it('cuts a slug over 200 characters and appends base-36 of |hash| of the whole path', () => {
    expect(longPath.length).toBe(250);
    expect(slug(longPath)).toBe(`${longPath.replace(/[^A-Za-z0-9]/g, '-').slice(0, 200)}-${Math.abs(referenceHash(longPath)).toString(36)}`);
    const nfd = `/Users/zoe\u0308/${'x'.repeat(220)}`;
    const nfc = nfd.normalize('NFC');
    expect(slug(nfd)).toBe(`${nfc.replace(/[^A-Za-z0-9]/g, '-').slice(0, 200)}-${Math.abs(referenceHash(nfc)).toString(36)}`);
  });
});

describe('folders named by earlier Strata versions', () => {
  it('are moved under the current name when the project is opened; what the current folder holds wins', async () => {
    const root = await tempDir();
    const vault = path.join(root, 'vault');
    const project = path.join(root, `${'long-folder-name-'.repeat(14)}end`);
    await fs.mkdir(project, { recursive: true });
    const real = await fs.realpath(project);
    expect(legacySlug(real)).not.toBe(slug(real));
    const old = path.join(vault, 'projects', legacySlug(real));
    const current = path.join(vault, 'projects', slug(real));
    await fs.mkdir(path.join(old, 'memory'), { recursive: true });
    await fs.writeFile(path.join(old, 'strata-session.jsonl'), '{"type":"user"}\n');
    await fs.writeFile(path.join(old, 'memory', 'MEMORY.md'), 'old index\n');
    await fs.writeFile(path.join(old, 'memory', 'user_role.md'), 'role\n');
    // Claude Code already wrote its own index under the current name.
    await fs.mkdir(path.join(current, 'memory'), { recursive: true });
    await fs.writeFile(path.join(current, 'memory', 'MEMORY.md'), 'claude code index\n');

    const paths = await ProjectPaths.resolve(vault, project);
    expect(paths.transcriptsDir).toBe(current);
    expect(await fs.readFile(path.join(current, 'strata-session.jsonl'), 'utf8')).toContain('user');
    expect(await fs.readFile(path.join(current, 'memory', 'user_role.md'), 'utf8')).toBe('role\n');
    expect(await fs.readFile(path.join(current, 'memory', 'MEMORY.md'), 'utf8')).toBe('claude code index\n');
    // The colliding old index stays where it was; nothing else is left there.
    expect(await fs.readdir(old, { recursive: true })).toEqual(['memory', path.join('memory', 'MEMORY.md')]);
  });

  it('is left alone for a path both namings agree on', async () => {
    const root = await tempDir();
    const vault = path.join(root, 'vault');
    const project = path.join(root, 'short');
    await fs.mkdir(project);
    const paths = await ProjectPaths.resolve(vault, project);
    expect(legacySlug(paths.projectDir)).toBe(slug(paths.projectDir));
    await expect(fs.stat(path.join(vault, 'projects'))).rejects.toThrow();
  });
});
