import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicTempPattern } from '../../../../main/core/fs/atomic-write.js';
import { deferredFlushMinFiles, WriteBatch } from '../../../../main/core/fs/write-batch.js';
import { tempDir } from '../../../support/temp-dir.js';

/**
 * A stand-in for `sync -f <folder>` that writes down what the folder holds at the moment of the flush
 * (and that it ran), then succeeds or fails as asked.
 */
async function recordingSync(dir: string, exitCode: number) {
  const log = path.join(dir, 'flush-saw.txt');
  const args = path.join(dir, 'flush-args.txt');
  const command = path.join(dir, 'fake-sync.sh');
  await fs.writeFile(command, `#!/bin/sh\n[ "$1" = "-f" ] || exit 9\nshift\nprintf '%s\\n' "$@" > "${args}"\nls -A "$1" > "${log}"\nexit ${exitCode}\n`, { mode: 0o755 });
  const lines = async (file: string) => {
    const text = await fs.readFile(file, 'utf8').catch(() => null);
    return text === null ? null : text.split('\n').filter(Boolean).sort();
  };
  return { command, seen: () => lines(log), folders: () => lines(args) };
}

async function stageMany(batch: WriteBatch, folder: string, count: number) {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const file = path.join(folder, `note-${i}.md`);
      return { file, text: `note ${i}\n`, temp: await batch.stage(file, `note ${i}\n`) };
    }),
  );
}

// Only Linux defers the flush (syncfs through `sync -f`); elsewhere every staged file is written durably, as writeFileAtomic does.
describe.runIf(process.platform === 'linux')('WriteBatch (Linux only: skipped elsewhere, where no flush is deferred)', () => {
  it('flushes a large batch once, with every file still a temp file and no target in place, then renames each', async () => {
    const dir = await tempDir();
    const folder = path.join(dir, 'team');
    await fs.mkdir(folder);
    const sync = await recordingSync(dir, 0);
    const batch = new WriteBatch({ expectedFiles: deferredFlushMinFiles, syncCommand: sync.command });
    const staged = await stageMany(batch, folder, deferredFlushMinFiles);

    await batch.flush();
    const atFlush = (await sync.seen())!;
    expect(atFlush).toHaveLength(deferredFlushMinFiles);
    expect(atFlush.every((name) => atomicTempPattern.test(name))).toBe(true);

    for (const { temp, file } of staged) expect(await batch.commit(temp, file)).toBe(true);
    expect((await fs.readdir(folder)).sort()).toEqual(staged.map(({ file }) => path.basename(file)).sort());
    for (const { file, text } of staged) expect(await fs.readFile(file, 'utf8')).toBe(text);
  });

  it('flushes each file system the files are on, once', async () => {
    const disk = await tempDir();
    const memory = await fs.mkdtemp(path.join('/dev/shm', 'strata-batch-'));
    try {
      const sync = await recordingSync(disk, 0);
      const batch = new WriteBatch({ expectedFiles: 100, syncCommand: sync.command });
      const staged = [...(await stageMany(batch, path.join(disk), 50)), ...(await stageMany(batch, memory, 50))];
      await batch.flush();
      const devices = new Set([(await fs.stat(disk)).dev, (await fs.stat(memory)).dev]);
      const folders = (await sync.folders())!;
      expect(folders).toHaveLength(devices.size);
      expect(new Set(await Promise.all(folders.map(async (f) => (await fs.stat(f)).dev)))).toEqual(devices);
      for (const { temp, file } of staged) expect(await batch.commit(temp, file)).toBe(true);
    } finally {
      await fs.rm(memory, { recursive: true, force: true });
    }
  });

  it('fsyncs each file instead when the flush command fails, and still commits them all', async () => {
    const dir = await tempDir();
    const sync = await recordingSync(dir, 1);
    const batch = new WriteBatch({ expectedFiles: 100, syncCommand: sync.command });
    const staged = await stageMany(batch, dir, 100);
    await batch.flush();
    expect(await sync.seen()).not.toBeNull();
    for (const { temp, file } of staged) expect(await batch.commit(temp, file)).toBe(true);
    for (const { file, text } of staged) expect(await fs.readFile(file, 'utf8')).toBe(text);
  });

  it('reports a file whose write failed at its commit, and commits the others', async () => {
    const dir = await tempDir();
    const batch = new WriteBatch({ expectedFiles: 100 });
    const staged = await stageMany(batch, dir, 99);
    // The worker cannot write this one: its folder does not exist.
    const lost = await batch.stage(path.join(dir, 'missing', 'note.md'), 'text\n');
    await batch.flush();
    await expect(batch.commit(lost, path.join(dir, 'missing', 'note.md'))).rejects.toMatchObject({ code: 'ENOENT' });
    for (const { temp, file } of staged) expect(await batch.commit(temp, file)).toBe(true);
    expect(await fs.readdir(dir)).toHaveLength(99);
  });

  it('fails the flush, rather than waiting forever, when its worker thread is killed (out of memory, say)', async () => {
    const dir = await tempDir();
    const batch = new WriteBatch({ expectedFiles: 100 });
    await stageMany(batch, dir, 100);
    // The thread is private; ending it from outside is the only way to stand in for the system killing it.
    await (batch as unknown as { worker: { thread: { terminate(): Promise<number> } } }).worker.thread.terminate();
    await expect(batch.flush()).rejects.toThrow(/stopped before it was done/);
    await batch.close();
  });

  it('writes a handful of files durably as they are staged, with no flush of the file system', async () => {
    const dir = await tempDir();
    const sync = await recordingSync(dir, 0);
    const batch = new WriteBatch({ expectedFiles: 3, syncCommand: sync.command });
    const staged = await stageMany(batch, dir, 3);
    // Committed before any flush: allowed, each temp is already on disk.
    for (const { temp, file } of staged) expect(await batch.commit(temp, file)).toBe(true);
    await batch.flush();
    expect(await sync.seen()).toBeNull();
  });

  it('refuses to expose a file of a deferred batch before the flush, leaving the target as it was', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'note.md');
    await fs.writeFile(file, 'mine\n');
    const batch = new WriteBatch({ expectedFiles: 500 });
    const temp = await batch.stage(file, 'theirs\n');
    await expect(batch.commit(temp, file)).rejects.toThrow(/before the batch was flushed/);
    expect(await fs.readFile(file, 'utf8')).toBe('mine\n');
    expect(await fs.readdir(dir)).toEqual(['note.md']);
  });

  it('keeps the target when the re-check before the rename says no, and drops discarded files', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'note.md');
    await fs.writeFile(file, 'saved by the user meanwhile\n');
    const batch = new WriteBatch({ expectedFiles: 500 });
    const kept = await batch.stage(file, 'download\n');
    const dropped = await batch.stage(path.join(dir, 'other.md'), 'other\n');
    await batch.discard(dropped);
    await batch.flush();
    expect(await batch.commit(kept, file, async () => false)).toBe(false);
    expect(await fs.readFile(file, 'utf8')).toBe('saved by the user meanwhile\n');
    expect(await fs.readdir(dir)).toEqual(['note.md']);
  });
});
