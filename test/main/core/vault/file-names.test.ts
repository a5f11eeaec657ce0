import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from './vault-helpers.js';

describe('vault file names', () => {
  it('refuses to create a file whose name holds a control character, and keeps one already there editable', async () => {
    const root = await tempDir('strata-vault-names-');
    const dir = path.join(root, 'projects', 'p', 'memory');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'old\nname.md'), memoryText('Old', 'named before the rule', 'Body.'));
    const { vault } = await openVault(root);
    for (const name of ['user\nrole.md', 'user\rrole.md', '\u001b[2J.md', 'x\u202E.md']) {
      await expect(vault.write(`projects/p/memory/${name}`, memoryText('Role', 'what the user does', 'Designer.'), { baseHash: null })).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/cannot be a file name: it contains/),
      });
    }
    expect((await fs.readdir(dir)).sort()).toEqual(['old\nname.md']);
    const current = await vault.read('projects/p/memory/old\nname.md');
    await vault.write('projects/p/memory/old\nname.md', memoryText('Old', 'named before the rule', 'Edited.'), { baseHash: current.hash });
    expect(await fs.readFile(path.join(dir, 'old\nname.md'), 'utf8')).toContain('Edited.');
  });
});
