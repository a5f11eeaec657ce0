import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

/** The codemod run as the lead runs it after a merge, on a small tree of engines of its own. */
function codemod(root: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['scripts/codemods/imports-through-index.mjs', '--root', root, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function tree(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  return root;
}
const read = (root: string, rel: string) => fs.readFile(path.join(root, rel), 'utf8');

// Each run starts the TypeScript compiler: about 2 s of CPU, far longer on a loaded machine.
const RUN_MS = 120_000;

describe('the imports-through-index codemod', () => {
  it("points an engine's stray imports at its index and exports the names there, values and types apart", async () => {
    const root = await tree({
      'main/core/vault/vault-root.ts': 'export class VaultRoot {}\nexport interface RootInfo { root: string }\n',
      'main/core/vault/index.ts': "export { VaultRoot } from './vault-root.js';\n",
      'main/core/chat/runner.ts': "import { VaultRoot, type RootInfo } from '../vault/vault-root.js';\nexport const a: RootInfo = { root: String(VaultRoot) };\n",
      'main/cli/cmd.ts': "import type { RootInfo } from '../core/vault/vault-root.js';\nexport type B = RootInfo;\n",
    });
    expect(codemod(root, '--check').status).toBe(1);
    expect(await read(root, 'main/core/chat/runner.ts')).toContain("'../vault/vault-root.js'");

    const first = codemod(root);
    expect(first.status).toBe(0);
    expect(await read(root, 'main/core/chat/runner.ts')).toContain("import { VaultRoot, type RootInfo } from '../vault/index.js';");
    expect(await read(root, 'main/cli/cmd.ts')).toContain("from '../core/vault/index.js';");
    const index = await read(root, 'main/core/vault/index.ts');
    expect(index).toContain("export type { RootInfo } from './vault-root.js';");
    expect(index.match(/VaultRoot\b/g)).toHaveLength(1);

    const again = codemod(root, '--check');
    expect([again.status, again.stdout.trim().split('\n').at(-1)]).toEqual([0, '0 files would change.']);
  }, RUN_MS);

  it('creates the index of an engine that has none, and leaves imports inside an engine alone', async () => {
    const root = await tree({
      'main/core/auth/store.ts': "export function loadStore() { return null; }\n",
      'main/core/auth/other.ts': "import { loadStore } from './store.js';\nexport const b = loadStore;\n",
      'main/core/services.ts': "import { loadStore } from './auth/store.js';\nexport const c = loadStore;\n",
    });
    expect(codemod(root).status).toBe(0);
    expect(await read(root, 'main/core/auth/index.ts')).toContain("export { loadStore } from './store.js';");
    expect(await read(root, 'main/core/services.ts')).toContain("from './auth/index.js';");
    expect(await read(root, 'main/core/auth/other.ts')).toContain("from './store.js';");
  }, RUN_MS);

  it('lists what it cannot move by name for a person: a namespace import', async () => {
    const root = await tree({
      'main/core/fs/atomic.ts': 'export const write = 1;\n',
      'main/core/vault/x.ts': "import * as atomic from '../fs/atomic.js';\nexport const d = atomic.write;\n",
    });
    const r = codemod(root);
    expect(r.stdout).toContain('main/core/vault/x.ts: default or * import of main/core/fs/atomic.ts');
    expect(await read(root, 'main/core/vault/x.ts')).toContain("'../fs/atomic.js'");
  }, RUN_MS);
});
