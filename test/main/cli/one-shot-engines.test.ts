import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/index.js';
import type { CliIo } from '../../../main/cli/cli-io.js';
import { createServices } from '../../../main/core/services.js';
import { tempDir } from '../../support/temp-dir.js';

/**
 * One-shot commands build their engines through services.ts's lightweight half (docs/architecture.md,
 * "Composition root"): nothing starts as a side effect. The app's start-up empties the conversation
 * trash of entries past their retention; `strata search` or `strata memory export` must not.
 */
async function vaultWithExpiredTrash() {
  const vault = await tempDir('strata-one-shot-vault-');
  const project = await tempDir('strata-one-shot-project-');
  const entry = path.join(vault, '.strata', 'trash', '0-expired');
  await fs.mkdir(entry, { recursive: true });
  // Deleted at the epoch: far past any retention period, so a purge would remove it.
  await fs.writeFile(path.join(entry, 'entry.json'), JSON.stringify({ id: '0-expired', deletedAt: 0, items: [] }));
  return { vault, project, entry };
}

function quietIo(): CliIo & { errors: string[] } {
  const errors: string[] = [];
  return { stdout: () => undefined, stderr: (l) => errors.push(l), env: {}, stopped: new Promise(() => undefined), errors };
}

const exists = (p: string) => fs.stat(p).then(() => true, () => false);

describe('one-shot CLI commands start nothing', () => {
  it('leave the conversation trash alone, which the full composition root empties at start', async () => {
    const { vault, project, entry } = await vaultWithExpiredTrash();
    const io = quietIo();
    expect(await runCli(['search', '--project', project, '--vault', vault, 'anything'], io)).toBe(0);
    // No memories to export: exit 1 with its message, after the vault was opened.
    expect(await runCli(['memory', 'export', '--project', project, '--vault', vault, '--format', 'markdown'], io)).toBe(1);
    expect(io.errors).toEqual(['strata memory export: no memories to export']);
    expect(await exists(entry)).toBe(true);

    // The contrast that makes the check mean something: the app's composition root purges this entry.
    const services = await createServices({ appDataDir: await tempDir('strata-one-shot-app-'), vaultRoot: vault, shell: 'cli' });
    try {
      const deadline = Date.now() + 10_000;
      while ((await exists(entry)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await exists(entry)).toBe(false);
    } finally {
      await services.close();
    }
  });
});
