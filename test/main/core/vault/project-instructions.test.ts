import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { openVault, waitFor } from './vault-helpers.js';
import { slug } from '../../../../common/paths/slug.js';
import { classifyVaultPath } from '../../../../main/core/vault/vault-paths.js';
import { createServices } from '../../../../main/core/services.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { testLogger } from '../../../support/test-logger.js';

/** A project folder with every instruction file the agent reads, and files the vault must not reach. */
async function projectFolder(): Promise<string> {
  const dir = await tempDir('strata-project-');
  await fs.mkdir(path.join(dir, '.claude', 'rules'), { recursive: true });
  await fs.mkdir(path.join(dir, 'src'), { recursive: true });
  await fs.writeFile(path.join(dir, 'CLAUDE.md'), '# Project\nUse pnpm, never npm.\n');
  await fs.writeFile(path.join(dir, '.claude', 'CLAUDE.md'), 'Inner instructions.\n');
  await fs.writeFile(path.join(dir, '.claude', 'rules', 'testing.md'), 'Run vitest with --project.\n');
  await fs.writeFile(path.join(dir, 'CLAUDE.local.md'), 'My local quirks.\n');
  await fs.writeFile(path.join(dir, '.claude', 'settings.json'), '{"secret": true}\n');
  await fs.writeFile(path.join(dir, 'src', 'CLAUDE.md'), 'Not read by the agent from here.\n');
  await fs.writeFile(path.join(dir, 'README.md'), 'readme\n');
  return dir;
}

describe("Opened projects' instruction files in the vault", () => {
  it('lists, reads, writes atomically with history and sees external edits of exactly the files the agent reads', async () => {
    const root = await tempDir('strata-vault-');
    const project = await projectFolder();
    const base = `@projects/${slug(project)}`;
    const { vault, changes, log } = await openVault(root);
    await vault.setProjects([{ path: project }]);

    const listed = vault.list().filter((m) => m.path.startsWith('@projects/'));
    expect(listed.map((m) => m.path)).toEqual(
      [`${base}/.claude/CLAUDE.md`, `${base}/.claude/rules/testing.md`, `${base}/CLAUDE.local.md`, `${base}/CLAUDE.md`].sort(),
    );
    expect(listed.every((m) => m.scope === 'instructions' && m.projectSlug === slug(project))).toBe(true);
    expect(listed.find((m) => m.path === `${base}/.claude/CLAUDE.md`)!.title).toBe('.claude/CLAUDE.md');
    expect(vault.search('pnpm').map((h) => h.path)).toEqual([`${base}/CLAUDE.md`]);

    const file = await vault.read(`${base}/CLAUDE.md`);
    expect(file.text).toBe('# Project\nUse pnpm, never npm.\n');
    await vault.write(`${base}/CLAUDE.md`, '# Project\nUse bun.\n', { baseHash: file.hash, reason: 'edit' });
    expect(await fs.readFile(path.join(project, 'CLAUDE.md'), 'utf8')).toBe('# Project\nUse bun.\n');
    // Atomic: no temp file left next to it; the old text is a version in the vault's history.
    expect((await fs.readdir(project)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const [version] = await vault.timeline(`${base}/CLAUDE.md`);
    expect((await vault.readVersion(`${base}/CLAUDE.md`, version!.hash)).text).toBe('# Project\nUse pnpm, never npm.\n');
    const blobs = await fs.readdir(path.join(root, '.strata', 'history', 'blobs'));
    expect(blobs).toContain(version!.hash);
    expect(blobs.some((b) => b.endsWith('.md'))).toBe(false);
    await waitFor(() => changes.some((c) => c.path === `${base}/CLAUDE.md` && !c.external), 'own write reported');

    // Another editor changes a rule file: the change arrives by itself, and it is indexed.
    await fs.writeFile(path.join(project, '.claude', 'rules', 'testing.md'), 'Run the zanzibar suite.\n');
    await waitFor(() => changes.some((c) => c.kind === 'changed' && c.path === `${base}/.claude/rules/testing.md` && c.external), 'external edit');
    expect(vault.search('zanzibar').map((h) => h.path)).toEqual([`${base}/.claude/rules/testing.md`]);
    // A new rule file is picked up; a file outside the set is not.
    await fs.writeFile(path.join(project, '.claude', 'rules', 'style.md'), 'Tabs.\n');
    await fs.writeFile(path.join(project, '.claude', 'notes.md'), 'not instructions\n');
    await waitFor(() => changes.some((c) => c.kind === 'added' && c.path === `${base}/.claude/rules/style.md`), 'new rule');
    await vault.idle();
    expect(vault.list().some((m) => m.path.endsWith('notes.md') || m.path.endsWith('README.md') || m.path.includes('/src/'))).toBe(false);
    log.assertNoErrors();
  });

  it('writes through a CLAUDE.md that links to another file in the project, keeping the link', async () => {
    const root = await tempDir('strata-vault-');
    const project = await projectFolder();
    await fs.writeFile(path.join(project, 'AGENTS.md'), 'Shared by every agent.\n');
    await fs.rm(path.join(project, 'CLAUDE.md'));
    await fs.symlink('AGENTS.md', path.join(project, 'CLAUDE.md'));
    const rel = `@projects/${slug(project)}/CLAUDE.md`;
    const { vault } = await openVault(root);
    await vault.setProjects([{ path: project }]);
    const file = await vault.read(rel);
    expect(file.text).toBe('Shared by every agent.\n');
    await vault.write(rel, 'Shared, and edited.\n', { baseHash: file.hash });
    expect((await fs.lstat(path.join(project, 'CLAUDE.md'))).isSymbolicLink()).toBe(true);
    expect(await fs.readFile(path.join(project, 'AGENTS.md'), 'utf8')).toBe('Shared, and edited.\n');
    expect((await vault.read(rel)).text).toBe('Shared, and edited.\n');
  });

  it('refuses every path outside the instruction set, and projects that are not open', async () => {
    const root = await tempDir('strata-vault-');
    const project = await projectFolder();
    const base = `@projects/${slug(project)}`;
    const { vault } = await openVault(root);
    await vault.setProjects([{ path: project }]);
    for (const rel of [`${base}/README.md`, `${base}/.claude/settings.json`, `${base}/src/CLAUDE.md`, `${base}/.claude/rules/x/y.md`, `${base}/../x/CLAUDE.md`]) {
      await expect(vault.read(rel)).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(vault.write(rel, 'x', {})).rejects.toMatchObject({ code: 'invalid_request' });
    }
    await expect(vault.rename(`${base}/CLAUDE.md`, 'README.md')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(vault.read('@projects/-not-open/CLAUDE.md')).rejects.toMatchObject({ code: 'not_found' });
    expect(await fs.readFile(path.join(project, 'README.md'), 'utf8')).toBe('readme\n');
    expect(classifyVaultPath(`${base}/README.md`)).toBeNull();
    // A real `@projects` folder in the vault is not a way in either.
    await fs.mkdir(path.join(root, '@projects', 'x'), { recursive: true });
    await fs.writeFile(path.join(root, '@projects', 'x', 'CLAUDE.md'), 'fake');
    await expect(vault.read('@projects/x/CLAUDE.md')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists a CLAUDE.md that links outside the project with an error, and neither reads nor writes through it', async () => {
    const root = await tempDir('strata-vault-');
    const project = await projectFolder();
    const outside = await tempDir('strata-outside-');
    await fs.writeFile(path.join(outside, 'secret.md'), 'outside text\n');
    await fs.rm(path.join(project, 'CLAUDE.local.md'));
    await fs.symlink(path.join(outside, 'secret.md'), path.join(project, 'CLAUDE.local.md'));
    // `.claude` itself leading outside: the rule files below it are outside too.
    await fs.mkdir(path.join(outside, 'dot', 'rules'), { recursive: true });
    await fs.writeFile(path.join(outside, 'dot', 'rules', 'r.md'), 'outside rule\n');
    await fs.rm(path.join(project, '.claude'), { recursive: true });
    await fs.symlink(path.join(outside, 'dot'), path.join(project, '.claude'));
    const base = `@projects/${slug(project)}`;
    const { vault, changes } = await openVault(root);
    await vault.setProjects([{ path: project }]);

    for (const rel of [`${base}/CLAUDE.local.md`, `${base}/.claude/rules/r.md`]) {
      const meta = vault.list().find((m) => m.path === rel);
      expect(meta?.error).toBe('Symbolic link to outside the project: not followed');
      await expect(vault.read(rel)).rejects.toMatchObject({ code: 'permission_denied' });
      await expect(vault.write(rel, 'overwritten', { baseHash: null })).rejects.toMatchObject({ code: 'permission_denied' });
      await expect(vault.delete(rel)).rejects.toMatchObject({ code: 'permission_denied' });
    }
    // Creating a file in a linked-out `.claude` is refused too.
    await expect(vault.write(`${base}/.claude/CLAUDE.md`, 'new', { baseHash: null })).rejects.toMatchObject({ code: 'permission_denied' });
    expect(vault.search('outside')).toEqual([]);
    expect(await fs.readFile(path.join(outside, 'secret.md'), 'utf8')).toBe('outside text\n');
    expect(await fs.readdir(path.join(outside, 'dot'))).toEqual(['rules']);

    // Forgetting the project takes its files out of the vault.
    await vault.setProjects([]);
    await vault.idle();
    expect(vault.list().filter((m) => m.path.startsWith('@projects/'))).toEqual([]);
    expect(changes.some((c) => c.kind === 'removed' && c.path === `${base}/CLAUDE.md`)).toBe(true);
    await expect(vault.read(`${base}/CLAUDE.md`)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps the vault usable while a project folder is missing, and picks its files up when it appears', async () => {
    const root = await tempDir('strata-vault-');
    const project = path.join(await tempDir('strata-parent-'), 'later');
    const rel = `@projects/${slug(project)}/CLAUDE.md`;
    const { vault, changes, log } = await openVault(root);
    await vault.setProjects([{ path: project }]);
    expect(vault.state).toBe('ready');
    await fs.mkdir(project);
    await fs.writeFile(path.join(project, 'CLAUDE.md'), 'Arrived later.\n');
    await waitFor(() => changes.some((c) => c.kind === 'added' && c.path === rel), 'the project CLAUDE.md added');
    expect(vault.search('arrived').map((h) => h.path)).toEqual([rel]);
    await fs.rm(project, { recursive: true });
    await waitFor(() => changes.some((c) => c.kind === 'removed' && c.path === rel), 'the project CLAUDE.md removed');
    expect(vault.state).toBe('ready');
    log.assertNoErrors();
  });

  it('follows the project list: a project opened in the app shows its CLAUDE.md files, a forgotten one drops them', async () => {
    const log = testLogger();
    const services = await createServices({ appDataDir: await tempDir('strata-app-'), shell: 'host', logger: log.logger });
    try {
      const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
      const project = await projectFolder();
      const rel = `@projects/${slug(project)}/CLAUDE.md`;
      let paths: string[] = [];
      const listedUntil = async (done: () => boolean) => {
        for (let i = 0; i < 500 && !done(); i++) {
          const result = await dispatch('vault:list-files', {});
          paths = result.ok ? (result.value as { path: string }[]).map((m) => m.path) : [];
          if (!done()) await new Promise((r) => setTimeout(r, 20));
        }
      };
      await dispatch('project:open', { path: project });
      await listedUntil(() => paths.includes(rel));
      expect(paths).toContain(rel);
      expect(await dispatch('vault:read-file', { path: rel })).toMatchObject({ ok: true, value: { text: '# Project\nUse pnpm, never npm.\n' } });
      await dispatch('project:forget', { path: project });
      await listedUntil(() => !paths.includes(rel));
      expect(paths.some((p) => p.startsWith('@projects/'))).toBe(false);
      log.assertNoErrors();
    } finally {
      await services.close();
    }
  });
});
