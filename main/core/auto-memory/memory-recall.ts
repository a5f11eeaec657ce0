import type { MemoryConfig } from '../../../common/config.js';
import type { Clock } from '../ports.js';
import { formatManifest, scanMemoryFiles, type MemoryFile } from './memory-files.js';
import { attachMemories, type RecalledMemory } from './recall-attach.js';
import { MemoryRanker } from './recall-rank.js';
import { selectOnline, type SideQuery } from './recall-select.js';

/** One user turn's recall request; the caller tracks what the session already holds. */
export interface RecallRequest {
  query: string;
  /** Absolute paths attached earlier in the session or read by a tool (never attached twice). */
  seen: ReadonlySet<string>;
  /** Bytes of memory attachments already in the session (docs/memory.md#auto-memory: ≤60 KiB a session). */
  sessionBytesUsed: number;
  recentTools?: readonly string[];
  /** Set when there is no network or no key: rank locally without trying the model. */
  offline?: boolean;
  /** This turn's small-model call (the model may change between turns); else the constructor's. */
  sideQuery?: SideQuery | null;
  signal?: AbortSignal;
}

export interface RecallResult {
  method: 'model' | 'local' | 'none';
  memories: RecalledMemory[];
}

/** docs/memory.md#recall: files read per scan and the manifest's size. */
const MANIFEST_FILES = 200;
const RANK_READ_BYTES = 16 * 1024;

/**
 * Relevant-memory recall (docs/memory.md#auto-memory): per user turn, up to 5 files chosen by a small model call over their
 * descriptions, or by the local ranking when offline or when that call fails. Keep one per memory folder
 * across turns: each scan re-reads only files whose mtime or size changed, and the local index is
 * updated for those files instead of rebuilt.
 */
export class MemoryRecall {
  private ranker: MemoryRanker | null = null;
  private readonly files = new Map<string, MemoryFile>();
  /** What the last scan did: files read from disk and files taken from the previous scan. */
  lastScan = { read: 0, reused: 0 };

  constructor(
    private readonly options: {
      memoryDir: string;
      config: MemoryConfig['autoMemory'];
      clock: Clock;
      sideQuery?: SideQuery | null;
    },
  ) {}

  async recall(request: RecallRequest): Promise<RecallResult> {
    const { config } = this.options;
    // A one-word message ("thanks") asks nothing worth recalling (docs/memory.md#recall step 1).
    if (!/\S\s+\S/.test(request.query.trim()) || request.sessionBytesUsed >= config.recallSessionBytes) {
      return { method: 'none', memories: [] };
    }
    const before = new Set(this.files.values());
    const files = await scanMemoryFiles(this.options.memoryDir, { maxBytes: RANK_READ_BYTES, cache: this.files });
    const reused = files.filter((f) => before.has(f)).length;
    this.lastScan = { read: files.length - reused, reused };
    const candidates = files.filter((f) => !request.seen.has(f.absPath) && !request.seen.has(f.relPath));
    if (candidates.length === 0) return { method: 'none', memories: [] };
    const byRel = new Map(candidates.map((f) => [f.relPath, f]));

    let method: RecallResult['method'] = 'local';
    let chosen: string[] | null = null;
    const sideQuery = request.sideQuery !== undefined ? request.sideQuery : this.options.sideQuery;
    if (sideQuery && !request.offline) {
      const listed = candidates.slice(0, MANIFEST_FILES);
      chosen = await selectOnline(sideQuery, {
        query: request.query,
        manifest: formatManifest(listed),
        known: new Set(listed.map((f) => f.relPath)),
        max: config.recallMaxFiles,
        recentTools: request.recentTools,
        signal: request.signal,
      });
      if (chosen) method = 'model';
    }
    chosen ??= this.rankerFor(files).rank(request.query, config.recallMaxFiles, new Set(files.filter((f) => !byRel.has(f.relPath)).map((f) => f.relPath)));

    const memories = attachMemories(
      chosen.map((rel) => byRel.get(rel)).filter((f): f is MemoryFile => f !== undefined),
      {
        limits: { maxLines: config.recallMaxLines, maxBytes: config.recallMaxBytes, sessionBytes: config.recallSessionBytes },
        now: this.options.clock.now(),
        sessionBytesUsed: request.sessionBytesUsed,
        seen: request.seen,
        max: config.recallMaxFiles,
      },
    );
    return { method, memories };
  }

  /** The index is a cache of the files: built on first use, then updated for the files that changed. */
  private rankerFor(files: MemoryFile[]): MemoryRanker {
    if (this.ranker) this.ranker.sync(files);
    else this.ranker = new MemoryRanker(files);
    return this.ranker;
  }
}
