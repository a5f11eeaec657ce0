import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import type { MemoryUsage, MemoryUse } from '../../../common/domain/memory-use.js';
import { writeJsonAtomic } from '../fs/index.js';
import type { Clock } from '../ports.js';
import { STATE_DIR } from '../vault/index.js';

/** How many of a memory's latest uses are kept by conversation (the count keeps growing). */
export const RECENT_USES_KEPT = 20;

const FILE_NAME = 'memory-usage.json';

interface UsageDocument {
  version: 1;
  /** When counting began (the first count, or the count after a damaged file was set aside). */
  since: string | null;
  /** By the memory's path relative to the vault root, with `/`. */
  files: Record<string, MemoryUse>;
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
    const next = this.chain.catch(() => undefined).then(async () => {
      const rels = absPaths.map((p) => this.relative(p)).filter((p): p is string => p !== null);
      if (rels.length === 0) return;
      const doc = await this.load();
      const at = new Date(this.clock.now()).toISOString();
      doc.since ??= at;
      for (const rel of new Set(rels)) {
        const old = Object.hasOwn(doc.files, rel) ? doc.files[rel]! : { count: 0, lastUsed: at, recent: [] };
        doc.files[rel] = { count: old.count + 1, lastUsed: at, recent: [{ sessionId, at }, ...old.recent].slice(0, RECENT_USES_KEPT) };
      }
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
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, since: null, files: {} };
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
      return { version: 1, since: null, files: {} };
    }
    const out: Record<string, MemoryUse> = Object.create(null) as Record<string, MemoryUse>;
    for (const [rel, use] of Object.entries(files)) if (isUse(use)) out[rel] = use;
    const since = (parsed as { since?: unknown }).since;
    return { version: 1, since: typeof since === 'string' ? since : null, files: out };
  }

  private relative(abs: string): string | null {
    for (const root of new Set([this.vaultRoot, realOr(this.vaultRoot)])) {
      const rel = path.relative(root, abs);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
    }
    return null;
  }
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
