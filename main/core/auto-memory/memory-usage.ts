import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import type { MemoryUsage, MemoryUse } from '../../../common/domain/memory-use.js';
import { writeJsonAtomic } from '../fs/index.js';
import type { Clock } from '../ports.js';
import { STATE_DIR } from '../vault/index.js';

/** How many of a memory's latest uses are kept by conversation (the count keeps growing). */
export const RECENT_USES_KEPT = 20;

const FILE_NAME = 'memory-usage.json';
/** How long a deleted memory's count is kept for its Undo (the vault trash's default). */
const SET_ASIDE_DAYS = 30;

interface UsageDocument {
  version: 1;
  /** When counting began (the first count, or the count after a damaged file was set aside). */
  since: string | null;
  /** By the memory's path relative to the vault root, with `/`. */
  files: Record<string, MemoryUse>;
  /** Counts of deleted memories, by their path, kept so Undo brings them back (`at`: when deleted). */
  setAside: Record<string, { use: MemoryUse; at: string }>;
}

const isUse = (v: unknown): v is MemoryUse => {
  const u = v as MemoryUse;
  return (
    typeof v === 'object' && v !== null &&
    Number.isSafeInteger(u.count) && u.count >= 0 &&
    typeof u.lastUsed === 'string' &&
    Array.isArray(u.recent) &&
    u.recent.every((r) => typeof r === 'object' && r !== null && typeof r.sessionId === 'string' && typeof r.at === 'string')
  );
};

/**
 * How often, when and in which conversations recall attached each memory (docs/memory.md#provenance-and-use).
 * Kept in Strata's own state (`.strata/memory-usage.json`), not in the memory's frontmatter: counting a
 * use must not rewrite the file, its history, its sync state or what Claude Code reads. One store per
 * vault serializes its read-modify-writes; each write is atomic.
 */
export class MemoryUsageStore {
  private static readonly stores = new Map<string, MemoryUsageStore>();
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly vaultRoot: string,
    private readonly clock: Clock,
  ) {}

  static forVault(vaultRoot: string, clock: Clock): MemoryUsageStore {
    let store = MemoryUsageStore.stores.get(vaultRoot);
    if (!store) MemoryUsageStore.stores.set(vaultRoot, (store = new MemoryUsageStore(vaultRoot, clock)));
    return store;
  }

  get file(): string {
    return path.join(this.vaultRoot, STATE_DIR, FILE_NAME);
  }

  /** Every counted memory's use, by vault-relative path, and since when. */
  async all(): Promise<MemoryUsage> {
    await this.chain.catch(() => undefined);
    const { since, files } = await this.load();
    return { since, files };
  }

  /** Counts one use of each memory (absolute paths; those outside the vault are ignored) by `sessionId`. */
  record(absPaths: readonly string[], sessionId: string): Promise<void> {
    const rels = absPaths.map((p) => this.relative(p)).filter((p): p is string => p !== null);
    return this.update((doc, at) => {
      if (rels.length === 0) return false;
      doc.since ??= at;
      for (const rel of new Set(rels)) {
        const old = Object.hasOwn(doc.files, rel) ? doc.files[rel]! : { count: 0, lastUsed: at, recent: [] };
        doc.files[rel] = { count: old.count + 1, lastUsed: at, recent: [{ sessionId, at }, ...old.recent].slice(0, RECENT_USES_KEPT) };
      }
      return true;
    });
  }

  /**
   * A memory was renamed or moved (vault-relative paths): its count goes with it, also from a count set
   * aside by the delete a move is made of; added to any count the new path already has.
   */
  move(moves: readonly { from: string; to: string }[]): Promise<void> {
    return this.update((doc) => {
      let changed = false;
      for (const { from, to } of moves) {
        if (from === to) continue;
        const use = Object.hasOwn(doc.files, from) ? doc.files[from]! : Object.hasOwn(doc.setAside, from) ? doc.setAside[from]!.use : null;
        if (!use) continue;
        delete doc.files[from];
        delete doc.setAside[from];
        doc.files[to] = Object.hasOwn(doc.files, to) ? mergeUses(doc.files[to]!, use) : use;
        changed = true;
      }
      return changed;
    });
  }

  /** `move` for absolute paths (the memory tool's rename); a path outside the vault moves nothing. */
  moveFiles(fromAbs: string, toAbs: string): Promise<void> {
    const from = this.relative(fromAbs);
    const to = this.relative(toAbs);
    return from === null || to === null ? Promise.resolve() : this.move([{ from, to }]);
  }

  /** A memory was deleted: its count is no longer listed, but kept for an Undo (`restore`) for a while. */
  setAside(rel: string): Promise<void> {
    return this.update((doc, at) => {
      if (!Object.hasOwn(doc.files, rel)) return false;
      doc.setAside[rel] = { use: doc.files[rel]!, at };
      delete doc.files[rel];
      return true;
    });
  }

  /** A deleted memory came back (Undo): so does its count. */
  restore(rel: string): Promise<void> {
    return this.update((doc) => {
      if (!Object.hasOwn(doc.setAside, rel)) return false;
      const { use } = doc.setAside[rel]!;
      delete doc.setAside[rel];
      doc.files[rel] = Object.hasOwn(doc.files, rel) ? mergeUses(doc.files[rel]!, use) : use;
      return true;
    });
  }

  /** One read-modify-write at a time; `change` returns false when there is nothing to write. */
  private update(change: (doc: UsageDocument, now: string) => boolean): Promise<void> {
    const next = this.chain.catch(() => undefined).then(async () => {
      const doc = await this.load();
      const now = this.clock.now();
      if (!change(doc, new Date(now).toISOString())) return;
      const oldest = now - SET_ASIDE_DAYS * 86_400_000;
      for (const [rel, { at }] of Object.entries(doc.setAside)) if (Date.parse(at) < oldest) delete doc.setAside[rel];
      await writeJsonAtomic(this.file, doc, { mode: 0o600, dirMode: 0o700 });
    });
    this.chain = next;
    return next;
  }

  /**
   * The document as stored. A file that is not this shape is set aside (renamed with `.damaged`) rather
   * than overwritten, so nothing is lost, and counting starts again; entries of the wrong shape are dropped.
   */
  private async load(): Promise<UsageDocument> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyDocument();
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const files = (parsed as UsageDocument | null)?.files;
    if (typeof files !== 'object' || files === null || Array.isArray(files)) {
      await fs.rename(this.file, `${this.file}.damaged`).catch(() => undefined);
      return emptyDocument();
    }
    const doc = emptyDocument();
    for (const [rel, use] of Object.entries(files)) if (isUse(use)) doc.files[rel] = use;
    const setAside = (parsed as { setAside?: unknown }).setAside;
    if (typeof setAside === 'object' && setAside !== null) {
      for (const [rel, entry] of Object.entries(setAside as Record<string, { use?: unknown; at?: unknown }>)) {
        if (isUse(entry?.use) && typeof entry.at === 'string') doc.setAside[rel] = { use: entry.use, at: entry.at };
      }
    }
    const since = (parsed as { since?: unknown }).since;
    doc.since = typeof since === 'string' ? since : null;
    return doc;
  }

  private relative(abs: string): string | null {
    for (const root of new Set([this.vaultRoot, realOr(this.vaultRoot)])) {
      const rel = path.relative(root, abs);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    }
    return null;
  }
}

function emptyDocument(): UsageDocument {
  return { version: 1, since: null, files: Object.create(null) as UsageDocument['files'], setAside: Object.create(null) as UsageDocument['setAside'] };
}

/** Two counts of one memory as one: summed, the later last use, the latest uses of both. */
function mergeUses(a: MemoryUse, b: MemoryUse): MemoryUse {
  const recent = [...a.recent, ...b.recent].sort((x, y) => y.at.localeCompare(x.at)).slice(0, RECENT_USES_KEPT);
  return { count: a.count + b.count, lastUsed: a.lastUsed > b.lastUsed ? a.lastUsed : b.lastUsed, recent };
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
