import { promises as fs } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { openVault } from './vault-helpers.js';

const child = fileURLToPath(new URL('./atomic-writer-child.ts', import.meta.url));

describe('Atomic writes under a crash', () => {
  it('leaves every file whole (old or new) when the writer is killed mid-write', async () => {
    const root = await tempDir('strata-crash-');
    const dir = path.join(root, 'projects', 'p1', 'memory');
    await fs.mkdir(dir, { recursive: true });
    for (let kill = 0; kill < 3; kill++) {
      const proc = spawn(process.execPath, ['--import', 'tsx', child, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        proc.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve());
        proc.on('exit', (code) => reject(new Error(`writer exited early with ${code}`)));
      });
      // Let it get into the middle of further rounds, then kill it without warning.
      await new Promise((r) => setTimeout(r, 150 + kill * 100));
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
      for (let i = 0; i < 10; i++) {
        const text = await fs.readFile(path.join(dir, `f${i}.md`), 'utf8');
        expect(() => JSON.parse(text), `f${i}.md after kill ${kill}`).not.toThrow();
        expect((JSON.parse(text) as { i: number }).i).toBe(i);
      }
    }
    // Leftover temp files of the killed writes are never listed as vault files.
    const { vault } = await openVault(root);
    expect(vault.list().map((m) => m.path.split('/').at(-1)).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}.md`).sort());
  }, 60_000);
});
