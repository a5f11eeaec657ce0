import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

const MEM = 'projects/p1/memory';

async function root(): Promise<string> {
  const r = await tempDir('strata-links-');
  await fs.mkdir(path.join(r, MEM, 'team'), { recursive: true });
  await fs.mkdir(path.join(r, 'projects', 'p2', 'memory'), { recursive: true });
  await fs.writeFile(
    path.join(r, MEM, 'prefers-tabs.md'),
    '---\nname: prefers-tabs\ndescription: Tabs\nmetadata:\n  type: feedback\n---\nSee [[code-style]], [[user_role|the role]] and [[deploy-day]].\nNot `[[in-code]]`.\n```\n[[in-fence]]\n```\n',
  );
  await fs.writeFile(path.join(r, MEM, 'code_style.md'), memoryText('Code style', 'House style', 'Tabs, per [[prefers-tabs]].'));
  await fs.writeFile(path.join(r, MEM, 'user_role.md'), memoryText('Role', 'A designer', 'Designs pages.'));
  await fs.writeFile(path.join(r, MEM, 'team', 'conventions.md'), memoryText('Conventions', 'Team rules', 'Follow [[Prefers tabs]].'));
  // Another project's memory of the same name is not this project's.
  await fs.writeFile(path.join(r, 'projects', 'p2', 'memory', 'deploy.md'), memoryText('deploy-day', 'Thursdays', 'x'));
  return r;
}

describe('[[name]] links between memories', () => {
  it('resolves links by name, slug or file name within the project, reports unresolved ones, lists backlinks', async () => {
    const { vault } = await openVault(await root());
    const links = vault.memoryLinks(`${MEM}/prefers-tabs.md`);
    expect(links.links).toEqual([
      { name: 'code-style', path: `${MEM}/code_style.md`, title: 'Code style' },
      { name: 'user_role', path: `${MEM}/user_role.md`, title: 'Role' },
      { name: 'deploy-day', path: null, title: null },
    ]);
    expect(links.backlinks).toEqual([
      { path: `${MEM}/code_style.md`, title: 'Code style' },
      { path: `${MEM}/team/conventions.md`, title: 'Conventions' },
    ]);
    expect(vault.memoryLinks(`${MEM}/user_role.md`)).toEqual({ links: [], backlinks: [{ path: `${MEM}/prefers-tabs.md`, title: 'prefers-tabs' }] });
  });

  it('refuses a path that is not a memory', async () => {
    const { vault } = await openVault(await root());
    expect(() => vault.memoryLinks('CLAUDE.md')).toThrow(/not a memory/);
  });
});
