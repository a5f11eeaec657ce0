import { close, fsync, open, promises as fs } from 'node:fs';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { tempFileName, writeTempFile } from './atomic-write.js';

const run = promisify(execFile);
const openFd = promisify(open);
const syncFd = promisify(fsync);
const closeFd = promisify(close);

/** Below this many files a batch writes each one durably, as writeFileAtomic does: a flush of the whole file system is not worth it. */
export const deferredFlushMinFiles = 64;

/** Files handed to the staging worker in one message. */
const chunkFiles = 256;

export interface WriteBatchOptions {
  /** How many files the caller expects to stage (decides whether the flush is deferred). */
  expectedFiles: number;
  /**
   * The program whose `-f <folder>` flushes the folder's whole file system (syncfs(2)): coreutils' and
   * busybox's `sync`. Tests name another program to see what is on disk at that moment.
   */
  syncCommand?: string;
}

/**
 * Many files written atomically with one flush for all, instead of one per file (a sync's first pull
 * writes thousands, and waiting for the disk once per file was most of its time: bench
 * sync-first-pull). Each file goes to a temp file beside its target without waiting for the disk;
 * `flush` puts them all on disk at once; only then is each renamed into place. A crash at any step
 * still leaves every target absent or whole, as writeFileAtomic does (git's "batch" fsync mode, taken to
 * one system call). On Linux the flush is syncfs(2), run as `sync -f`: it also writes back whatever
 * else is waiting on that file system, which the kernel would do within half a minute anyway. Where
 * that fails, each temp file is fsynced. The temp files are written by a worker thread with
 * synchronous calls, a fraction of the cost of the asynchronous ones and off the main thread.
 * Elsewhere, or for a handful of files, each temp file is written durably as it is staged and `flush`
 * has nothing to do.
 */
export class WriteBatch {
  private readonly deferred: boolean;
  private readonly unflushed = new Set<string>();
  /** Temp files whose write or fallback fsync failed: their commit throws this instead of exposing them. */
  private readonly failed = new Map<string, Error>();
  private worker: StagingWorker | null = null;

  constructor(private readonly options: WriteBatchOptions) {
    this.deferred = process.platform === 'linux' && options.expectedFiles >= deferredFlushMinFiles;
  }

  /**
   * Writes `data` to a temp file beside `file`; returns the temp path, which `commit` or `discard` takes.
   * In a deferred batch the write is queued and its failure, if any, surfaces at `commit`.
   */
  async stage(file: string, data: string, mode = 0o644): Promise<string> {
    if (!this.deferred) return writeTempFile(path.dirname(file), data, mode);
    const temp = path.join(path.dirname(file), tempFileName());
    this.unflushed.add(temp);
    this.worker ??= new StagingWorker((temp, error) => this.failed.set(temp, error));
    this.worker.write(temp, data, mode);
    return temp;
  }

  /** Puts every staged temp file on disk. */
  async flush(): Promise<void> {
    await this.worker?.settled();
    if (this.unflushed.size === 0) return;
    const temps = [...this.unflushed].filter((temp) => !this.failed.has(temp));
    this.unflushed.clear();
    try {
      await run(this.options.syncCommand ?? 'sync', ['-f', ...(await oneFolderPerFileSystem(temps))]);
      return;
    } catch {
      // No `sync -f` here (or it failed): the same guarantee, one file at a time.
    }
    let next = 0;
    const each = async () => {
      while (next < temps.length) {
        const temp = temps[next++]!;
        await syncPath(temp).catch((error: Error) => this.failed.set(temp, error));
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, temps.length) }, each));
  }

  /**
   * Renames flushed temp files of new files into place, each unless a file appeared at its path since
   * the caller planned it ("taken": the temp is removed, the file left as it is), and stamps `mtime`.
   * The check and the rename are microseconds apart; no rename can compare-and-swap.
   */
  async placeNew(files: NewFile[]): Promise<Placement[]> {
    const ready = files.map(({ temp }) => this.problem(temp));
    const todo = files.filter((_, i) => ready[i] === null);
    const args = todo.map(({ temp, file, mtime }): [string, string, number | null] => [temp, file, mtime && !Number.isNaN(mtime.getTime()) ? mtime.getTime() : null]);
    const answers = this.worker ? (await this.worker.place(args)).map((a) => (typeof a === 'string' ? a : toError(a))) : await Promise.all(args.map((a) => placeOne(...a)));
    let next = 0;
    return Promise.all(
      files.map(async ({ temp }, i): Promise<Placement> => {
        const problem = ready[i];
        if (!problem) return answers[next++]!;
        await fs.rm(temp, { force: true });
        return problem;
      }),
    );
  }

  /**
   * Renames a flushed temp file over `file`, after `beforeRename` (the caller's re-check; false
   * abandons the write: the temp is removed, the target untouched). The temp is removed on any failure.
   */
  async commit(temp: string, file: string, beforeRename?: () => Promise<boolean>): Promise<boolean> {
    try {
      const problem = this.problem(temp);
      if (problem) throw problem;
      if (beforeRename && !(await beforeRename())) {
        await fs.rm(temp, { force: true });
        return false;
      }
      await fs.rename(temp, file);
      return true;
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  /** Drops a staged file that will not be committed (once its queued write, if any, is done). */
  async discard(temp: string): Promise<void> {
    await this.worker?.settled().catch(() => undefined);
    this.unflushed.delete(temp);
    await fs.rm(temp, { force: true });
  }

  /** Ends the batch's worker thread, if it has one. */
  async close(): Promise<void> {
    await this.worker?.close();
    this.worker = null;
  }

  /** Why a temp file cannot be exposed: not flushed yet, or its write or flush failed. */
  private problem(temp: string): Error | null {
    if (this.unflushed.has(temp)) return new Error('a staged file was committed before the batch was flushed');
    return this.failed.get(temp) ?? null;
  }
}

/** A staged new file for `placeNew`. */
export interface NewFile {
  temp: string;
  file: string;
  mtime: Date | null;
}

/** What `placeNew` did with one file: placed, left alone because a file appeared there, or the error. */
export type Placement = 'placed' | 'taken' | Error;

/** `placeNew` without a worker: the same steps with asynchronous calls. */
async function placeOne(temp: string, file: string, mtimeMs: number | null): Promise<Placement> {
  try {
    if (await fs.lstat(file).then((stat) => stat.isFile(), () => false)) {
      await fs.rm(temp, { force: true });
      return 'taken';
    }
    await fs.rename(temp, file);
    if (mtimeMs !== null) await fs.utimes(file, mtimeMs / 1000, mtimeMs / 1000).catch(() => undefined);
    return 'placed';
  } catch (error) {
    await fs.rm(temp, { force: true });
    return error as Error;
  }
}

/**
 * The worker's code, run from this string (`eval`) so it needs no file of its own in any bundle.
 * `write` [temp, data, mode][]: answers the ones that failed, each already removed. `place`
 * [temp, file, mtime ms or null][]: renames each temp into place unless something that is a file is
 * there (then answers "taken" and removes the temp), stamps the time; answers one result a file.
 */
const stagingSource = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const problem = (error) => [error.code ?? null, String(error.message)];
function write(files) {
  const failures = [];
  for (const [temp, data, mode] of files) {
    let fd = null;
    try {
      fd = fs.openSync(temp, 'wx', mode);
      fs.writeFileSync(fd, data);
      fs.closeSync(fd);
    } catch (error) {
      if (fd !== null) try { fs.closeSync(fd); } catch {}
      try { fs.rmSync(temp, { force: true }); } catch {}
      failures.push([temp, ...problem(error)]);
    }
  }
  return failures;
}
function place(files) {
  return files.map(([temp, file, mtime]) => {
    try {
      let taken = false;
      try { taken = fs.lstatSync(file).isFile(); } catch (error) { if (error.code !== 'ENOENT') throw error; }
      if (taken) {
        fs.rmSync(temp, { force: true });
        return 'taken';
      }
      fs.renameSync(temp, file);
      // The time is for recall's "saved N days ago"; a file that could not take it is still whole.
      if (mtime !== null) try { fs.utimesSync(file, mtime / 1000, mtime / 1000); } catch {}
      return 'placed';
    } catch (error) {
      try { fs.rmSync(temp, { force: true }); } catch {}
      return problem(error);
    }
  });
}
parentPort.on('message', ([kind, files]) => parentPort.postMessage(kind === 'write' ? write(files) : kind === 'place' ? place(files) : []));
`;

type Problem = [code: string | null, message: string];

function toError([code, message]: Problem): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

/** One worker thread: queued temp-file writes sent in chunks, and placements; answers come back in order. */
class StagingWorker {
  private readonly thread = new Worker(stagingSource, { eval: true });
  private queue: [string, string, number][] = [];
  private sendScheduled = false;
  /** One per message sent, in order. */
  private readonly answers: { resolve(value: unknown): void; reject(error: Error): void }[] = [];
  private broken: Error | null = null;

  constructor(private readonly onFailure: (temp: string, error: Error) => void) {
    this.thread.on('message', (answer: unknown) => this.answers.shift()?.resolve(answer));
    const fail = (error: Error) => {
      this.broken ??= error;
      for (const waiting of this.answers.splice(0)) waiting.reject(this.broken);
    };
    this.thread.on('error', fail);
    // A thread that ends with requests unanswered (killed, out of memory) fails them rather than leaving the pull waiting forever.
    this.thread.on('exit', () => fail(new Error('the worker writing the pull stopped before it was done')));
  }

  write(temp: string, data: string, mode: number): void {
    this.queue.push([temp, data, mode]);
    if (this.queue.length >= chunkFiles) this.sendWrites();
    else if (!this.sendScheduled) {
      this.sendScheduled = true;
      setImmediate(() => this.sendWrites());
    }
  }

  /** Resolves once every queued write is done; rejects if the thread died. */
  async settled(): Promise<void> {
    this.sendWrites();
    await this.request('settle', []);
  }

  place(files: [temp: string, file: string, mtimeMs: number | null][]): Promise<('placed' | 'taken' | Problem)[]> {
    return this.request('place', files) as Promise<('placed' | 'taken' | Problem)[]>;
  }

  close(): Promise<number> {
    return this.thread.terminate();
  }

  private sendWrites(): void {
    this.sendScheduled = false;
    if (this.queue.length === 0) return;
    const files = this.queue;
    this.queue = [];
    // A write nobody awaits: its failures are kept for the commit; a dead thread fails the next request.
    this.request('write', files).then(
      (failures) => {
        for (const [temp, ...problem] of failures as [string, ...Problem][]) this.onFailure(temp, toError(problem));
      },
      () => undefined,
    );
  }

  private request(kind: 'write' | 'place' | 'settle', files: unknown[]): Promise<unknown> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.answers.push({ resolve, reject });
      this.thread.postMessage([kind, files]);
    });
  }
}

/**
 * A folder of the temp files on each file system they are on: one `syncfs` each (a folder mounted
 * inside the team folder is another file system; one flush of the first would not cover it).
 */
async function oneFolderPerFileSystem(temps: string[]): Promise<string[]> {
  const folders = [...new Set(temps.map((temp) => path.dirname(temp)))];
  const devices = await Promise.all(folders.map(async (folder) => (await fs.stat(folder)).dev));
  const byDevice = new Map<number, string>();
  folders.forEach((folder, i) => byDevice.has(devices[i]!) || byDevice.set(devices[i]!, folder));
  return [...byDevice.values()];
}

async function syncPath(file: string): Promise<void> {
  const fd = await openFd(file, 'r+');
  try {
    await syncFd(fd);
  } finally {
    await closeFd(fd);
  }
}
