import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { openVault, memoryText } from './vault-helpers.js';
import { classifyVaultPath } from '../../../../main/core/vault/vault-paths.js';

const MEM = 'projects/p1/memory';

async function root(): Promise<string> {
  const r = await tempDir('strata-scan-');
  await fs.mkdir(path.join(r, MEM, 'team'), { recursive: true });
  return r;
}

describe('Vault path classifier', () => {
  it('classifies the docs/architecture.md layout by scope, project and session', () => {
    expect(classifyVaultPath('CLAUDE.md')).toEqual({ scope: 'instructions', projectSlug: null });
    expect(classifyVaultPath('projects/-a-b/s1.jsonl')).toEqual({ scope: 'transcript', projectSlug: '-a-b', sessionId: 's1' });
    expect(classifyVaultPath('projects/-a-b/s1/session-memory/summary.md')).toEqual({ scope: 'session-notes', projectSlug: '-a-b', sessionId: 's1' });
    expect(classifyVaultPath('projects/-a-b/memory/MEMORY.md')).toEqual({ scope: 'project-memory', projectSlug: '-a-b' });
    expect(classifyVaultPath('projects/-a-b/memory/topic.md')).toEqual({ scope: 'project-memory', projectSlug: '-a-b' });
    expect(classifyVaultPath('projects/-a-b/memory/team/x/y.md')).toEqual({ scope: 'team-memory', projectSlug: '-a-b' });
    expect(classifyVaultPath('projects/-a-b/memory/sub/topic.md')).toBeNull();
    expect(classifyVaultPath('session-memory/config/template.md')).toBeNull();
    expect(classifyVaultPath('notes.txt')).toBeNull();
  });
});

describe('Vault listing of bad input', () => {
  it('lists malformed frontmatter with an error and keeps the raw text readable', async () => {
    const r = await root();
    // Repeated keys: Claude Code's second try (quoting values) cannot save it either.
    const raw = '---\nname: a\nname: b\ndescription: x\n---\nbody\n';
    await fs.writeFile(path.join(r, MEM, 'bad.md'), raw);
    await fs.writeFile(path.join(r, MEM, 'none.md'), 'no frontmatter at all\n');
    const { vault } = await openVault(r);
    const bad = vault.list().find((m) => m.path === `${MEM}/bad.md`)!;
    expect(bad.error).toMatch(/not valid YAML/);
    const file = await vault.read(`${MEM}/bad.md`);
    expect(file.text).toBe(raw);
    expect(file.frontmatterError).toMatch(/not valid YAML/);
    expect(vault.list().find((m) => m.path === `${MEM}/none.md`)!.error).toMatch(/No frontmatter/);
    expect((await vault.read(`${MEM}/none.md`)).frontmatterError).toMatch(/No frontmatter/);
  });

  it('asks no frontmatter of MEMORY.md, the index: neither in the list nor when the file is opened', async () => {
    const r = await root();
    await fs.writeFile(path.join(r, MEM, 'MEMORY.md'), '- [Tabs](tabs.md) — use tabs\n');
    const { vault } = await openVault(r);
    expect(vault.list().find((m) => m.path === `${MEM}/MEMORY.md`)!.error).toBeNull();
    expect(await vault.read(`${MEM}/MEMORY.md`)).toMatchObject({ frontmatter: null, frontmatterError: null });
  });

  it('parses name, description and type, and shows an unknown type as untyped', async () => {
    const r = await root();
    await fs.writeFile(path.join(r, MEM, 'a.md'), memoryText('Tabs', 'use tabs', 'body', 'feedback'));
    await fs.writeFile(path.join(r, MEM, 'b.md'), memoryText('Odd', 'odd type', 'body', 'whatever'));
    const { vault } = await openVault(r);
    const [a, b] = vault.list().filter((m) => m.path.endsWith('/a.md') || m.path.endsWith('/b.md'));
    expect(a).toMatchObject({ title: 'Tabs', description: 'use tabs', type: 'feedback', error: null, scope: 'project-memory', projectSlug: 'p1' });
    expect(b!.type).toBe('untyped');
  });

  it('lists a binary or non-UTF-8 file as binary and refuses to open it as text', async () => {
    const r = await root();
    await fs.writeFile(path.join(r, MEM, 'bin.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await fs.writeFile(path.join(r, MEM, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const { vault } = await openVault(r);
    expect(vault.list().find((m) => m.path.endsWith('bin.md'))).toMatchObject({ binary: true });
    expect(vault.list().find((m) => m.path.endsWith('latin1.md'))).toMatchObject({ binary: true });
    await expect(vault.read(`${MEM}/bin.md`)).rejects.toMatchObject({ code: 'unsupported' });
    await expect(vault.write(`${MEM}/bin.md`, 'text')).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('lists a 50 MB file as too large without loading it', async () => {
    const r = await root();
    const big = path.join(r, MEM, 'huge.md');
    const handle = await fs.open(big, 'w');
    await handle.truncate(50 * 1024 * 1024);
    await handle.close();
    const { vault } = await openVault(r);
    const meta = vault.list().find((m) => m.path.endsWith('huge.md'))!;
    expect(meta).toMatchObject({ tooLarge: true, size: 50 * 1024 * 1024, binary: false });
    await expect(vault.read(`${MEM}/huge.md`)).rejects.toThrow(/50\.0 MB, over the 5\.0 MB limit/);
  });

  it('lists symlink loops, broken links and links out of the vault with an error, never following them', async () => {
    const r = await root();
    const outside = await tempDir('strata-outside-');
    await fs.writeFile(path.join(outside, 'secret.md'), 'outside');
    await fs.symlink('loop-b.md', path.join(r, MEM, 'loop-a.md'));
    await fs.symlink('loop-a.md', path.join(r, MEM, 'loop-b.md'));
    await fs.symlink('missing.md', path.join(r, MEM, 'broken.md'));
    await fs.symlink(path.join(outside, 'secret.md'), path.join(r, MEM, 'out.md'));
    await fs.symlink(r, path.join(r, MEM, 'team', 'self'));
    const { vault, log } = await openVault(r);
    const byName = (n: string) => vault.list().find((m) => m.path.endsWith(`/${n}`));
    expect(byName('loop-a.md')!.error).toMatch(/loop/);
    expect(byName('broken.md')!.error).toMatch(/Broken symbolic link/);
    expect(byName('out.md')!.error).toMatch(/outside the vault/);
    expect(vault.search('outside')).toEqual([]);
    await expect(vault.read(`${MEM}/out.md`)).rejects.toMatchObject({ code: 'permission_denied' });
    log.assertNoErrors();
  });

  it('lists an unreadable file with an error (when not running as root)', async () => {
    const r = await root();
    const file = path.join(r, MEM, 'locked.md');
    await fs.writeFile(file, memoryText('Locked', 'no access', 'body'));
    await fs.chmod(file, 0o000);
    const readable = await fs.readFile(file).then(() => true, () => false);
    const { vault } = await openVault(r);
    const meta = vault.list().find((m) => m.path.endsWith('locked.md'))!;
    if (readable) {
      // Running as root: chmod 000 does not stop reads, so the file is simply readable here.
      expect(process.getuid?.()).toBe(0);
      expect(meta.error).toBeNull();
    } else {
      expect(meta.error).toMatch(/permission denied/);
      await expect(vault.read(`${MEM}/locked.md`)).rejects.toMatchObject({ code: 'permission_denied' });
    }
  });

  it('refuses paths that leave the vault or point into its own state', async () => {
    const r = await root();
    const { vault } = await openVault(r);
    await expect(vault.read('../etc/passwd')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(vault.write('.strata/settings.json', '{}')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(vault.write('projects/p1/s1.jsonl', '{}')).rejects.toMatchObject({ code: 'unsupported' });
  });
});
