import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { listPackage } from '@electron/asar';
import { tempDir } from '../support/temp-dir.js';

const run = promisify(execFile);

// @electron/fuses looks for this sentinel followed by [wire version, fuse count, fuse states].
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE_NAMES = [
  'runAsNode',
  'enableCookieEncryption',
  'enableNodeOptionsEnvironmentVariable',
  'enableNodeCliInspectArguments',
  'enableEmbeddedAsarIntegrityValidation',
  'onlyLoadAppFromAsar',
  'loadBrowserProcessSpecificV8Snapshot',
  'grantFileProtocolExtraPrivileges',
];

/**
 * A stand-in Electron distribution (the real binary cannot be downloaded here): an executable that
 * carries a fuse wire with Electron's defaults, so electron-builder's fuse step really runs on it.
 */
async function stubElectronDist(): Promise<string> {
  const dir = await tempDir('stub-electron-');
  const wire = Buffer.concat([
    Buffer.from(`#!/bin/sh\necho stub electron\nexit 0\n# `),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, FUSE_NAMES.length]),
    Buffer.from('10111100'),
    Buffer.from('\n'),
  ]);
  await fs.writeFile(path.join(dir, 'electron'), wire, { mode: 0o755 });
  await fs.writeFile(path.join(dir, 'version'), '45.6.1');
  return dir;
}

describe('electron-builder packaging', () => {
  it('packs an app.asar holding main, preload and renderer, without dev-only packages or the server drivers, with fuses flipped', async () => {
    const out = await tempDir('pack-');
    const dist = await stubElectronDist();
    await run(
      'npx',
      ['electron-builder', '--linux', 'dir', '-c.npmRebuild=false', `-c.electronDist=${dist}`, `-c.directories.output=${out}`],
      { env: { ...process.env, CI: 'true' }, maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
    );
    const unpacked = path.join(out, 'linux-unpacked');
    const files = listPackage(path.join(unpacked, 'resources', 'app.asar'), { isPack: false }).map((f) =>
      f.replaceAll('\\', '/'),
    );
    expect(files).toContain('/dist/electron/main.mjs');
    expect(files).toContain('/dist/preload/index.cjs');
    expect(files).toContain('/dist/renderer/index.html');
    expect(files).toContain('/node_modules/chokidar/package.json');
    expect(files).toContain('/node_modules/@anthropic-ai/sdk/package.json');
    for (const banned of ['better-sqlite3', 'pg', 'fastify', 'vitest', 'vite', 'electron', 'react', 'typescript', 'playwright-core']) {
      expect(files.some((f) => f.startsWith(`/node_modules/${banned}/`)), banned).toBe(false);
    }
    expect(files.some((f) => f.startsWith('/main/') || f.startsWith('/test/') || f.startsWith('/server/'))).toBe(false);

    const binary = await fs.readFile(path.join(unpacked, 'strata'));
    const at = binary.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length + 2;
    const states = Object.fromEntries(FUSE_NAMES.map((name, i) => [name, String.fromCharCode(binary[at + i]!)]));
    expect(states).toEqual({
      runAsNode: '0',
      enableCookieEncryption: '1',
      enableNodeOptionsEnvironmentVariable: '0',
      enableNodeCliInspectArguments: '0',
      enableEmbeddedAsarIntegrityValidation: '1',
      onlyLoadAppFromAsar: '1',
      loadBrowserProcessSpecificV8Snapshot: '0',
      grantFileProtocolExtraPrivileges: '0',
    });
  }, 300_000);

  it('rejects an unknown configuration key before any download', async () => {
    const dir = await tempDir();
    const config = path.join(dir, 'bad.yml');
    await fs.writeFile(config, 'appId: x\nnotAKey: 1\n');
    const failure = await run('npx', ['electron-builder', '--linux', 'dir', '--config', config], {
      env: { ...process.env, CI: 'true' },
      timeout: 120_000,
    }).catch((e: { stderr: string; stdout: string }) => e);
    expect('stderr' in failure ? failure.stderr + failure.stdout : '').toMatch(/notAKey|configuration/i);
  }, 180_000);
});
