// `npm start`: builds, then runs the desktop app in Electron. Electron downloads its binary on first
// use; where that download cannot happen (no internet), say so and point to the browser version.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const electronDir = path.join(root, 'node_modules', 'electron');

function electronBinary() {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

let binary = electronBinary();
if (!binary && existsSync(path.join(electronDir, 'install.js'))) {
  console.log('Fetching the Electron binary (first run only)…');
  spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { stdio: 'inherit', timeout: 180_000 });
  binary = electronBinary();
}
if (!binary) {
  console.error(
    [
      '',
      'Strata could not start its desktop window: the Electron binary is not installed and could not be',
      'downloaded (this machine may have no access to Electron’s download host).',
      '',
      'Run the same app in your browser instead:',
      '',
      '    npm run web',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
const child = spawn(binary, [root], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
