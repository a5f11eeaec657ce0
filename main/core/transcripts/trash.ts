import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppFailure } from '../../../common/result.js';
import { readJsonFile, writeJsonAtomic } from '../fs/index.js';
import type { Clock } from '../ports.js';

/** One soft-deleted thing in `<vault>/.strata/trash/<id>/`, restorable until it is purged. */
export interface TrashEntry {
  id: string;
  /** Epoch ms. */
  deletedAt: number;
  /** What the caller says it was (`conversation`), and whatever it needs to show it. */
  kind: string;
  label: string;
  meta: Record<string, string>;
  /** Moved paths, relative to the vault root, in the order they were moved. */
  items: { original: string; stored: string }[];
}

const MANIFEST = 'entry.json';
const DAY_MS = 24 * 60 * 60 * 1000;

function isEntry(value: unknown): value is TrashEntry {
  const v = value as TrashEntry | undefined;
  return !!v && typeof v.id === 'string' && typeof v.deletedAt === 'number' && Array.isArray(v.items);
}

/**
 * Soft delete inside the vault: items are renamed (same file system, so nothing is copied) into a
 * trash folder with a manifest, restored by renaming back, and purged after `retentionDays`.
 */
export class VaultTrash {
  readonly dir: string;

  constructor(
    private readonly vaultRoot: string,
    private readonly clock: Clock,
    private readonly retentionDays: number,
  ) {
    this.dir = path.join(vaultRoot, '.strata', 'trash');
  }

  /** Moves the existing paths among `paths` (absolute, inside the vault) into one new trash entry. */
  async moveIn(paths: string[], info: { kind: string; label: string; meta?: Record<string, string> }): Promise<TrashEntry> {
    const existing: string[] = [];
    for (const p of paths) {
      const rel = path.relative(this.vaultRoot, p);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw new AppFailure('invalid_request', `${p} is not inside the vault`);
      if (await fs.lstat(p).catch(() => null)) existing.push(p);
    }
    if (existing.length === 0) throw new AppFailure('not_found', `Nothing to delete: ${info.label} has no files`);
    const deletedAt = this.clock.now();
    const id = `${deletedAt}-${randomBytes(4).toString('hex')}`;
    const entryDir = path.join(this.dir, id);
    const entry: TrashEntry = {
      id,
      deletedAt,
      kind: info.kind,
      label: info.label,
      meta: info.meta ?? {},
      items: existing.map((p, i) => ({ original: path.relative(this.vaultRoot, p), stored: `${i}-${path.basename(p)}` })),
    };
    await fs.mkdir(entryDir, { recursive: true, mode: 0o700 });
    // The manifest first: a crash mid-move leaves an entry that restore can still put back.
    await writeJsonAtomic(path.join(entryDir, MANIFEST), entry, { mode: 0o600 });
    for (const item of entry.items) {
      await fs.rename(path.join(this.vaultRoot, item.original), path.join(entryDir, item.stored));
    }
    return entry;
  }

  async list(): Promise<TrashEntry[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const entries: TrashEntry[] = [];
    for (const name of names) {
      const raw = await readJsonFile(path.join(this.dir, name, MANIFEST)).catch(() => undefined);
      if (isEntry(raw) && raw.id === name) entries.push(raw);
    }
    return entries.sort((a, b) => b.deletedAt - a.deletedAt);
  }

  /** Undo: puts every item back; refuses (`conflict`) when something now exists at an original path. */
  async restore(id: string): Promise<TrashEntry> {
    const entry = (await this.list()).find((e) => e.id === id);
    if (!entry) throw new AppFailure('not_found', `Nothing in the trash with id ${id} (it may have been purged)`);
    const entryDir = path.join(this.dir, id);
    for (const item of entry.items) {
      if (await fs.lstat(path.join(this.vaultRoot, item.original)).catch(() => null)) {
        throw new AppFailure('conflict', `Cannot restore: ${item.original} exists again`);
      }
    }
    for (const item of entry.items) {
      const from = path.join(entryDir, item.stored);
      if (!(await fs.lstat(from).catch(() => null))) continue;
      const to = path.join(this.vaultRoot, item.original);
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(from, to);
    }
    await fs.rm(entryDir, { recursive: true, force: true });
    return entry;
  }

  /** Removes entries deleted more than `retentionDays` ago; returns how many. */
  async purgeExpired(): Promise<number> {
    const cutoff = this.clock.now() - this.retentionDays * DAY_MS;
    let purged = 0;
    for (const entry of await this.list()) {
      if (entry.deletedAt > cutoff) continue;
      await fs.rm(path.join(this.dir, entry.id), { recursive: true, force: true });
      purged++;
    }
    return purged;
  }
}
