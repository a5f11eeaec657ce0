import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Bundles a child-process entry (TypeScript) into one ES module, the way scripts/build.mjs bundles the
 * CLI, so a test that starts many children pays for compilation once instead of `node --import tsx`
 * transpiling the whole import graph at every start. The bundle sits under node_modules/.cache (so its
 * packages resolve from the repository) and is removed by `remove`.
 */
export async function compileChild(entry: string): Promise<{ file: string; remove: () => Promise<void> }> {
  await fs.mkdir(path.join(root, 'node_modules', '.cache'), { recursive: true });
  const dir = await fs.mkdtemp(path.join(root, 'node_modules', '.cache', 'strata-test-child-'));
  const file = path.join(dir, `${path.basename(entry, path.extname(entry))}.mjs`);
  await build({
    entryPoints: [entry],
    outfile: file,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    absWorkingDir: root,
    logLevel: 'warning',
  });
  return { file, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
