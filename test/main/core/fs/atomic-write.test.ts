import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicTempPattern, writeFileAtomic } from '../../../../main/core/fs/atomic-write.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('writeFileAtomic', () => {
  it('creates parent folders, writes the content and keeps an existing mode', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'a', 'b', 'note.md');
    await writeFileAtomic(file, 'one', { mode: 0o600 });
    expect(await fs.readFile(file, 'utf8')).toBe('one');
    await fs.chmod(file, 0o640);
    await writeFileAtomic(file, 'two');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
    expect(await fs.readdir(path.dirname(file))).toEqual(['note.md']);
  });

  it('leaves no temp file beside the target when the write itself fails (the disk full, a size limit)', async () => {
    const dir = await tempDir();
    const child = path.join(import.meta.dirname, 'write-past-limit.child.ts');
    // 16 blocks of 1 KiB: the 200,000-byte write fails with EFBIG instead of killing the process.
    const run = spawn('bash', ['-c', `trap '' XFSZ; ulimit -f 16; exec "${process.execPath}" --import tsx "${child}" "${dir}"`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    run.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => run.once('exit', resolve));
    expect(JSON.parse(out)).toEqual({ outcome: 'EFBIG', names: [] });
  });

  it('abandons the write when beforeRename says no, with the new content already on disk aside', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'note.md');
    await fs.writeFile(file, 'old');
    let tempSeen = false;
    const written = await writeFileAtomic(file, 'new', {
      beforeRename: async () => {
        tempSeen = (await fs.readdir(dir)).some((n) => atomicTempPattern.test(n));
        return false;
      },
    });
    expect(written).toBe(false);
    expect(tempSeen).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe('old');
    expect(await fs.readdir(dir)).toEqual(['note.md']);
    expect(await writeFileAtomic(file, 'new', { beforeRename: async () => true })).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe('new');
  });

  it('leaves the old or the new content whole when the writer is killed mid-write', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'state.json');
    const modulePath = path.resolve('main/core/fs/atomic-write.ts');
    // A child process rewrites the file with large, self-checking payloads until it is killed with SIGKILL.
    const script = `
      const { writeFileAtomic } = await import(${JSON.stringify(modulePath)});
      for (let i = 0; ; i++) {
        const body = JSON.stringify({ i, pad: 'x'.repeat(200000 + (i % 7) * 1000) });
        await writeFileAtomic(${JSON.stringify(file)}, body);
        if (i === 3) process.stdout.write('ready\\n');
      }`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    await new Promise((r) => setTimeout(r, 150));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { i: number; pad: string };
    expect(parsed.pad.length).toBe(200000 + (parsed.i % 7) * 1000);
  });

  it('writes a file whose name is at the 255-byte limit: the temp name does not grow with it', async () => {
    const dir = await tempDir();
    const file = path.join(dir, `${'n'.repeat(252)}.md`);
    expect(await writeFileAtomic(file, 'long name')).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe('long name');
  });
});
