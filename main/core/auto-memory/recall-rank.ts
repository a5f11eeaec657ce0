import MiniSearch from 'minisearch';
import type { MemoryFile } from './memory-files.js';

/**
 * Offline relevant-memory ranking (docs/memory.md#auto-memory: local full-text ranking when the model call is unavailable):
 * an in-memory MiniSearch index over one memory folder's files, rebuilt from the files (a cache only).
 */

const STOP_WORDS = new Set(
  ('a an and are as at be but by can could did do does for from had has have how i if in into is it its me my ' +
    'not of on or our should so that the their them then there these they this to was we were what when where ' +
    'which who why will with would you your about any again all also am just more most no only other same some ' +
    'than too very us use using used get got make want need know tell remember recall again ever')
    .split(' '),
);

/** Lower-case, NFKC, stop words out; a few English suffixes trimmed so "deploys" meets "deploy". */
export function processTerm(term: string): string | null {
  const t = term.normalize('NFKC').toLowerCase();
  if (t.length < 2 || STOP_WORDS.has(t)) return null;
  return t.length > 4 ? t.replace(/(?:ies|es|s|ing|ed)$/, (m) => (m === 'ies' ? 'y' : '')) : t;
}

interface Doc {
  id: string;
  name: string;
  description: string;
  body: string;
  file: string;
}

const toDoc = (f: MemoryFile): Doc => ({
  id: f.relPath,
  name: f.name ?? '',
  description: f.description ?? '',
  body: f.body,
  file: f.relPath.replace(/\.md$/, ''),
});

const versionOf = (f: MemoryFile) => `${f.mtimeMs}:${f.size}`;

/**
 * Scores within this share of the best one count as a tie, and a tie goes to the newer file: when two
 * memories say much the same (a fact and the later one that replaced it), the newer should come first.
 * Measured by `npm run bench -- recall-quality` (docs/memory-upkeep.md "Measuring recall").
 */
const TIE_SHARE = 0.1;

/** Ranks a memory folder's files for a question; built once, kept current with `sync`, queried per turn. */
export class MemoryRanker {
  private readonly index: MiniSearch<Doc>;
  /** Each indexed file's mtime and size, by relative path. */
  private readonly versions = new Map<string, string>();
  /** Each indexed file's modified time, by relative path (ties go to the newer file). */
  private readonly mtimes = new Map<string, number>();

  constructor(files: readonly MemoryFile[]) {
    this.index = new MiniSearch<Doc>({
      fields: ['name', 'description', 'body', 'file'],
      storeFields: [],
      processTerm,
      tokenize: (text) => text.split(/[^\p{L}\p{N}]+/u).filter(Boolean),
      searchOptions: {
        boost: { name: 3, description: 2, file: 1.5, body: 1 },
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    this.index.addAll(files.map(toDoc));
    for (const f of files) {
      this.versions.set(f.relPath, versionOf(f));
      this.mtimes.set(f.relPath, f.mtimeMs);
    }
  }

  /**
   * Brings the index to `files`: removed files leave it, added ones join it, changed ones are
   * re-indexed; the rest is untouched. Returns how many documents changed.
   */
  sync(files: readonly MemoryFile[]): number {
    let changed = 0;
    const present = new Set(files.map((f) => f.relPath));
    for (const id of [...this.versions.keys()]) {
      if (present.has(id)) continue;
      this.index.discard(id);
      this.versions.delete(id);
      this.mtimes.delete(id);
      changed++;
    }
    for (const f of files) {
      const version = this.versions.get(f.relPath);
      if (version === versionOf(f)) continue;
      if (version === undefined) this.index.add(toDoc(f));
      else this.index.replace(toDoc(f));
      this.versions.set(f.relPath, versionOf(f));
      this.mtimes.set(f.relPath, f.mtimeMs);
      changed++;
    }
    return changed;
  }

  /** Relative paths of the best `limit` files, best first, skipping `exclude`. */
  rank(query: string, limit: number, exclude: ReadonlySet<string> = new Set()): string[] {
    const found = this.index
      .search(query)
      .filter((r) => !exclude.has(r.id as string))
      .slice(0, limit * 2)
      .map((r) => ({ id: r.id as string, score: r.score, mtime: this.mtimes.get(r.id as string) ?? 0 }));
    // Neighbours whose scores are within TIE_SHARE of each other are a tie: the newer moves up.
    for (let i = 0; i + 1 < found.length; i++) {
      const [a, b] = [found[i]!, found[i + 1]!];
      if (b.score >= a.score * (1 - TIE_SHARE) && b.mtime > a.mtime) [found[i], found[i + 1]] = [b, a];
    }
    return found.slice(0, limit).map((r) => r.id);
  }
}
