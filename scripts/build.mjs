// Builds everything the CLI, the host and the Electron shell load at run time:
// the renderer (Vite) and three Node bundles (esbuild). Run by `npm run build` and by `prepare`,
// so `npx strata` works right after `npm ci`.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { rm } from 'node:fs/promises';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

const nodeBundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Dependencies stay in node_modules: native modules cannot be bundled and the rest loads faster as is.
  packages: 'external',
  absWorkingDir: root,
};

const jobs = [];
if (want('node')) {
  jobs.push(
    // Split per command: `strata X` loads only X's chunk (main/cli/command-registry.ts), for a fast start.
    rm(path.join(root, 'dist', 'cli'), { recursive: true, force: true }).then(() =>
      esbuild({
        ...nodeBundle,
        entryPoints: { strata: './main/cli/index.ts' },
        outdir: 'dist/cli',
        outExtension: { '.js': '.mjs' },
        chunkNames: 'chunks/[name]-[hash]',
        splitting: true,
        format: 'esm',
      }),
    ),
    esbuild({
      ...nodeBundle,
      entryPoints: ['./main/electron/main.ts'],
      outfile: 'dist/electron/main.mjs',
      format: 'esm',
    }),
    // The preload runs sandboxed: one CommonJS file, nothing but 'electron' left external.
    esbuild({
      ...nodeBundle,
      packages: undefined,
      external: ['electron'],
      entryPoints: ['./preload/index.ts'],
      outfile: 'dist/preload/index.cjs',
      format: 'cjs',
    }),
  );
}
if (want('renderer')) {
  jobs.push(viteBuild({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' }));
}
await Promise.all(jobs);
