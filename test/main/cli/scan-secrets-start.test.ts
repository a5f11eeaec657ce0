import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `strata scan-secrets FILE` runs per file or as a git hook, so it must start without loading the app: what
 * its command module pulls in, bundled the way scripts/build.mjs bundles the CLI (dependencies external).
 * The time itself is measured by bench/cli-start.bench.ts; this checks the cause.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

async function loadedBy(entry: string): Promise<{ sources: string[]; packages: string[] }> {
  const result = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: root,
  });
  const inputs = result.metafile.inputs;
  const sources = Object.keys(inputs);
  const packages = [...new Set(Object.values(inputs).flatMap((i) => i.imports.filter((m) => m.external && !m.path.startsWith('node:')).map((m) => m.path)))];
  return { sources, packages };
}

describe('strata scan-secrets start', () => {
  it('loads the scanner and the vault pointer, not the services, the SDK, zod or a watcher', async () => {
    const { sources, packages } = await loadedBy('main/cli/commands/scan-secrets.ts');
    expect(sources).toContain('main/core/secrets/scan-text.ts');
    expect(sources).toContain('main/core/vault-root.ts');
    expect(sources.filter((s) => /services|vault-engines|core\/vault\/vault\.ts/.test(s))).toEqual([]);
    expect(packages).toEqual([]);
  });
});
