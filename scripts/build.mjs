// Builds everything the CLI, the host and the Electron shell load at run time:
// the renderer (Vite) and three Node bundles (esbuild). Run by `npm run build` and by `prepare`,
// so `npx strata` works right after `npm ci`.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

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
    esbuild({ ...nodeBundle, entryPoints: ['./main/cli/index.ts'], outfile: 'dist/cli/strata.mjs', format: 'esm' }),
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
