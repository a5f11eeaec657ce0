import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProjectRegistry } from '../../../../main/core/projects/project-registry.js';
import { slug } from '../../../../main/core/paths/slug.js';
import { tempDir } from '../../../support/temp-dir.js';

const clock = (start = 1_700_000_000_000) => {
  let t = start;
  return { now: () => (t += 1000) };
};

describe('ProjectRegistry', () => {
  it('records opened folders most recent first, by real path, without duplicates', async () => {
    const vault = await tempDir();
    const a = await tempDir();
    const b = await tempDir();
    const link = path.join(await tempDir(), 'link-to-a');
    await fs.symlink(a, link);
    const registry = new ProjectRegistry(vault, clock());
    await registry.open(a);
    await registry.open(b);
    await registry.open(link);
    expect(registry.list().map((p) => p.path)).toEqual([a, b]);
    const reloaded = new ProjectRegistry(vault, clock());
    expect((await reloaded.load()).map((p) => p.path)).toEqual([a, b]);
  });

  it('refuses a missing folder and a file with distinct codes', async () => {
    const vault = await tempDir();
    const registry = new ProjectRegistry(vault, clock());
    await expect(registry.open(path.join(vault, 'missing'))).rejects.toMatchObject({ code: 'not_found' });
    const file = path.join(vault, 'file.txt');
    await fs.writeFile(file, 'x');
    await expect(registry.open(file)).rejects.toMatchObject({ code: 'not_a_directory' });
  });

  it('forgets a project, and keeps a corrupt projects file aside instead of overwriting it', async () => {
    const vault = await tempDir();
    const a = await tempDir();
    const registry = new ProjectRegistry(vault, clock());
    await registry.open(a);
    expect(await registry.forget(a)).toEqual([]);
    await fs.writeFile(path.join(vault, '.strata', 'projects.json'), '{broken');
    expect(await new ProjectRegistry(vault, clock()).load()).toEqual([]);
    const aside = (await fs.readdir(path.join(vault, '.strata'))).filter((f) => f.startsWith('projects.json.invalid-'));
    expect(aside).toHaveLength(1);
    expect(await fs.readFile(path.join(vault, '.strata', aside[0]!), 'utf8')).toBe('{broken');
  });

  it('knows where each project keeps its memory: the git root’s slug, also for lists written before it was kept', async () => {
    const vault = await tempDir();
    const repo = await tempDir();
    await fs.mkdir(path.join(repo, '.git'));
    await fs.mkdir(path.join(repo, 'web'));
    const plain = await tempDir();
    const registry = new ProjectRegistry(vault, clock());
    expect((await registry.open(path.join(repo, 'web'))).memorySlug).toBe(slug(repo));
    expect((await registry.open(plain)).memorySlug).toBe(slug(plain));
    await fs.writeFile(path.join(vault, '.strata', 'projects.json'), JSON.stringify({ projects: [{ path: path.join(repo, 'web'), name: 'web', openedAt: '2026-12-01T00:00:00Z' }] }));
    const upgraded = [{ path: path.join(repo, 'web'), name: 'web', openedAt: '2026-12-01T00:00:00Z', memorySlug: slug(repo) }];
    expect(await new ProjectRegistry(vault, clock()).load()).toEqual(upgraded);
    // Kept in the file, so the next start does no lookup.
    expect(JSON.parse(await fs.readFile(path.join(vault, '.strata', 'projects.json'), 'utf8'))).toEqual({ projects: upgraded });
  });
});
