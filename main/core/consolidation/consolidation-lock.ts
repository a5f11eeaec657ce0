import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/index.js';
import type { Clock } from '../ports.js';

/**
 * The consolidation lock, in the memory folder as Claude Code keeps it (`memory/.consolidate-lock`,
 * docs/memory.md#auto-memory): one pass at a time per folder, across windows and processes. Its modified time is when
 * the last pass finished (so Claude Code and Strata read the same "last run"); its content says whether
 * a pass holds it. A holder that has not finished within the stale time (a crash) no longer blocks.
 */
export const LOCK_FILE = '.consolidate-lock';

const lockSchema = z.union([
  z.object({ state: z.literal('running'), token: z.string(), pid: z.number(), startedAt: z.number(), previousRunAt: z.number().nullable() }),
  z.object({ state: z.literal('idle'), lastRunAt: z.number() }),
]);
type LockState = z.infer<typeof lockSchema>;

export interface HeldLock {
  /** Ends the pass: on success the last run becomes now; on failure it stays what it was. */
  release(success: boolean): Promise<void>;
}

export type AcquireResult = { ok: true; lock: HeldLock; previousRunAt: number | null } | { ok: false; heldSince: number };

export class ConsolidationLock {
  private readonly file: string;

  constructor(
    memoryDir: string,
    private readonly clock: Clock,
    private readonly staleMs: number,
  ) {
    this.file = path.join(memoryDir, LOCK_FILE);
  }

  /** The lock as on disk: null when absent; a file from Claude Code (a PID, no JSON) counts as idle at its mtime. */
  private async read(): Promise<LockState | null> {
    const [text, stat] = await Promise.all([fs.readFile(this.file, 'utf8').catch(() => null), fs.stat(this.file).catch(() => null)]);
    if (text === null || stat === null) return null;
    try {
      const parsed = lockSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // Not ours: fall through to the mtime.
    }
    return { state: 'idle', lastRunAt: stat.mtimeMs };
  }

  /** When the last pass finished, or null when none has. */
  async lastRunAt(): Promise<number | null> {
    const state = await this.read();
    if (!state) return null;
    return state.state === 'idle' ? state.lastRunAt : state.previousRunAt;
  }

  async acquire(): Promise<AcquireResult> {
    const now = this.clock.now();
    const current = await this.read();
    if (current?.state === 'running' && now - current.startedAt < this.staleMs) return { ok: false, heldSince: current.startedAt };
    const previousRunAt = current === null ? null : current.state === 'idle' ? current.lastRunAt : current.previousRunAt;
    const token = randomUUID();
    const running: LockState = { state: 'running', token, pid: process.pid, startedAt: now, previousRunAt };
    const text = JSON.stringify(running);
    if (current === null) {
      // Exclusive create: of two first passes, one wins.
      const created = await fs.writeFile(this.file, text, { flag: 'wx', mode: 0o644 }).then(() => true, (e: NodeJS.ErrnoException) => {
        if (e.code === 'EEXIST') return false;
        throw e;
      });
      if (!created) return this.acquireAgainAfterRace();
    } else {
      await writeFileAtomic(this.file, text);
    }
    // Two passes taking over a stale lock at once: the last write wins, the other sees it and backs off.
    const after = await this.read();
    if (after?.state !== 'running' || after.token !== token) return { ok: false, heldSince: after?.state === 'running' ? after.startedAt : now };
    return { ok: true, previousRunAt, lock: { release: (success) => this.release(token, success ? this.clock.now() : previousRunAt) } };
  }

  private async acquireAgainAfterRace(): Promise<AcquireResult> {
    const current = await this.read();
    return { ok: false, heldSince: current?.state === 'running' ? current.startedAt : this.clock.now() };
  }

  private async release(token: string, lastRunAt: number | null): Promise<void> {
    const current = await this.read();
    if (current?.state !== 'running' || current.token !== token) return;
    if (lastRunAt === null) {
      await fs.rm(this.file, { force: true });
      return;
    }
    await writeFileAtomic(this.file, JSON.stringify({ state: 'idle', lastRunAt } satisfies LockState));
    const at = new Date(lastRunAt);
    await fs.utimes(this.file, at, at);
  }
}
