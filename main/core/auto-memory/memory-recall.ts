import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';
import { Sequencer } from '../../../common/async/sequencer.js';
import type { Clock } from '../ports.js';
import { scanMemoryFiles, type MemoryFile } from './memory-files.js';
import { attachMemories, type RecalledMemory } from './recall-attach.js';
import { MemoryRanker, type RankWhy } from './recall-rank.js';
import { selectOnline, selectorSystemPrompt, selectorUserMessage, type SideQuery } from './recall-select.js';
import { buildShortlist, estimateTokens } from './recall-shortlist.js';
import { surfaceWords } from '../search/index.js';
import { RECALL_READ_CHARS, type FilesInOptions, type MemoryFileSource } from './memory-source.js';

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
  /** Told how many memory files the folder holds once they are read (the chat's progress line). */
  onFiles?: (count: number) => void;
}

/** Why one memory was attached: its place and score parts in the local ranking, and who picked it. */
export interface RecallPick {
  relPath: string;
  /** 1-based place in the local ranking; null when it holds none of the question's words. */
  localRank: number | null;
  why: RankWhy | null;
  pickedBy: 'model' | 'local';
  /** Listed for the model for being among the newest, not for its words. */
  listedAsNew: boolean;
}

export interface RecallSkip {
  relPath: string;
  reason: 'gone before it could be attached' | 'over the session’s recall budget';
}

/** What recall did and why (`strata recall --explain`, the chat's recalled-memory chip). */
export interface RecallExplanation {
  /** Memory files in the folder. */
  files: number;
  /** Of those, already attached or read in this conversation (never attached again). */
  alreadySeen: number;
  /** The model's list: how many files and how many tokens the whole selector prompt took. */
  shortlist: { files: number; tokens: number } | null;
  /** Why the local ranking answered instead of the model (offline, no model, or its failure). */
  localBecause: string | null;
  picks: RecallPick[];
  skipped: RecallSkip[];
  /** Why nothing was recalled at all, when nothing was. */
  nothingBecause: string | null;
}

export interface RecallResult {
  method: 'model' | 'local' | 'none';
  memories: RecalledMemory[];
  explain: RecallExplanation;
}

/** Files the warm-up adds to the local index between two turns of the event loop (a few milliseconds' work). */
const WARM_SLICE = 200;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How deep the local ranking goes for the model's list (the token budget cuts it shorter). */
const SHORTLIST_DEPTH = 400;

const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
/** Two words or more: apart by a space, or, in a script written without spaces (Japanese, Chinese, Thai), by the word breaker. */
function hasTwoWords(text: string): boolean {
  if (/\S\s+\S/.test(text.trim())) return true;
  if (!UNSPACED.test(text)) return false;
  let n = 0;
  for (const s of words.segment(text.slice(0, 200))) if (s.isWordLike && ++n >= 2) return true;
  return false;
}

const emptyExplain = (files: number, nothingBecause: string, alreadySeen = 0): RecallExplanation => ({ files, alreadySeen, shortlist: null, localBecause: null, picks: [], skipped: [], nothingBecause });
const none = (files: number, because: string): RecallResult => ({ method: 'none', memories: [], explain: emptyExplain(files, because) });

/**
 * Relevant-memory recall (docs/memory.md#recall): per user turn, up to 5 files — chosen by a small model
 * call over a shortlist the local ranking builds within a token budget, or by the local ranking alone when
 * offline or when that call fails. Keep one per memory folder across turns: each scan re-reads only files
 * whose mtime or size changed, and the local index is updated for those files instead of rebuilt.
 */
export class MemoryRecall {
  private readonly ranker = new MemoryRanker();
  private readonly files = new Map<string, MemoryFile>();
  private synced: MemoryFile[] | null = null;
  /** One scan at a time: the warm-up and a turn never bring the index up to date side by side. */
  private readonly scans = new Sequencer();
  /** Turns waiting for a scan: while one waits, the warm-up stops slicing and finishes in one go. */
  private waiting = 0;
  /** What the last scan did: files read from disk and files taken from the previous scan. */
  lastScan = { read: 0, reused: 0 };

  constructor(
    private readonly options: {
      memoryDir: string;
      config: MemoryConfig['autoMemory'];
      clock: Clock;
      sideQuery?: SideQuery | null;
      /** The vault's catalog of the folder, when it holds it (memory-source.ts); else recall scans the folder. */
      source?: MemoryFileSource | null;
    },
  ) {}

  async recall(request: RecallRequest): Promise<RecallResult> {
    const { config } = this.options;
    // A one-word message ("thanks") asks nothing worth recalling (docs/memory.md#recall step 1).
    if (!hasTwoWords(request.query)) return none(this.files.size, 'a message of one word asks nothing to recall');
    if (request.sessionBytesUsed >= config.recallSessionBytes) return none(this.files.size, 'this conversation has used its recall budget');
    const files = await this.scan(request.signal);
    if (request.onFiles) {
      request.onFiles(files.length);
      // One turn of the event loop before the ranking (which holds it while it indexes a first 10,000
      // files): a progress line that is due shows now, not after the answer.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (files.length === 0) return none(0, 'the memory folder holds no memories');
    const seenRel = this.seenIn(request.seen);
    const isSeen = (f: MemoryFile) => seenRel.has(f.relPath);
    if (seenRel.size >= files.length) return { ...none(files.length, 'every memory is already in this conversation'), explain: emptyExplain(files.length, 'every memory is already in this conversation', seenRel.size) };
    const ranked = this.ranker.rankExplained(request.query, SHORTLIST_DEPTH, seenRel);
    const rankOf = new Map(ranked.map((r, i) => [r.relPath, { place: i + 1, why: r.why }]));
    const byRel = this.files;

    let method: RecallResult['method'] = 'local';
    let chosen: string[] | null = null;
    let shortlist: RecallExplanation['shortlist'] = null;
    let listedAsNew = new Set<string>();
    let localBecause: string | null = request.offline ? 'offline' : 'no model to ask';
    const sideQuery = request.sideQuery !== undefined ? request.sideQuery : this.options.sideQuery;
    if (sideQuery && !request.offline) {
      const fixed = estimateTokens(selectorSystemPrompt) + estimateTokens(selectorUserMessage(request.query, '', request.recentTools));
      const list = buildShortlist(ranked, seenRel.size ? files.filter((f) => !isSeen(f)) : files, fixed);
      shortlist = { files: list.files.length, tokens: list.tokens };
      listedAsNew = list.byRecency;
      const selection = await selectOnline(sideQuery, {
        query: request.query,
        manifest: list.manifest,
        known: new Set(list.files.map((f) => f.relPath)),
        max: config.recallMaxFiles,
        recentTools: request.recentTools,
        signal: request.signal,
      });
      if (selection.chosen) {
        method = 'model';
        chosen = selection.chosen;
        localBecause = null;
      } else localBecause = selection.failure;
    }
    chosen ??= ranked.slice(0, config.recallMaxFiles * 2).map((r) => r.relPath);
    chosen = chosen.filter((rel) => !seenRel.has(rel));
    if (chosen.length === 0) return { method: 'none', memories: [], explain: { ...emptyExplain(files.length, method === 'model' ? 'the model chose none of the listed memories' : 'no memory holds the question’s words', seenRel.size), shortlist, localBecause } };

    const { present, gone } = await this.stillThere(chosen.map((rel) => byRel.get(rel)).filter((f): f is MemoryFile => f !== undefined));
    const memories = attachMemories(present, {
      limits: { maxLines: config.recallMaxLines, maxBytes: config.recallMaxBytes, sessionBytes: config.recallSessionBytes },
      now: this.options.clock.now(),
      sessionBytesUsed: request.sessionBytesUsed,
      seen: request.seen,
      max: config.recallMaxFiles,
    });
    const attached = new Set(memories.map((m) => m.relPath));
    const skipped: RecallSkip[] = [
      ...gone.map((f) => ({ relPath: f.relPath, reason: 'gone before it could be attached' as const })),
      ...present.slice(0, config.recallMaxFiles).filter((f) => !attached.has(f.relPath)).map((f) => ({ relPath: f.relPath, reason: 'over the session’s recall budget' as const })),
    ];
    const picks = memories.map((m): RecallPick => {
      const local = rankOf.get(m.relPath);
      const file = byRel.get(m.relPath);
      const why = local && file ? { ...local.why, related: surfaceWords(`${file.description ?? ''}\n${file.body}`, local.why.related) } : null;
      return { relPath: m.relPath, localRank: local?.place ?? null, why, pickedBy: method === 'model' ? 'model' : 'local', listedAsNew: listedAsNew.has(m.relPath) };
    });
    const nothingBecause = memories.length === 0 ? 'the chosen memories could not be attached' : null;
    return { method: memories.length ? method : 'none', memories, explain: { files: files.length, alreadySeen: seenRel.size, shortlist, localBecause, picks, skipped, nothingBecause } };
  }

  /**
   * Reads the folder and builds the local index ahead of the first question (docs/memory.md#recall "Reading
   * the folder"), in slices that leave the event loop free: the app calls it once the vault is searchable,
   * so the first turn finds the index built. A turn asked meanwhile waits for it, then scans as usual.
   */
  async warm(signal?: AbortSignal): Promise<void> {
    await this.scans.run(() => this.scanOnce(signal, { sliced: () => this.waiting === 0, unchecked: true }));
  }

  /** The folder's files, newest first: unchanged ones from the last scan, the index updated for the rest. */
  private async scan(signal?: AbortSignal): Promise<MemoryFile[]> {
    this.waiting++;
    let started = false;
    const start = () => {
      started = true;
      this.waiting--;
    };
    try {
      return await this.scans.run(() => {
        start();
        return this.scanOnce(signal, {});
      });
    } finally {
      if (!started) this.waiting--;
    }
  }

  private async scanOnce(signal: AbortSignal | undefined, ahead: FilesInOptions): Promise<MemoryFile[]> {
    const fromVault = await this.options.source?.filesIn(this.options.memoryDir, signal, ahead);
    // Stopped while it waited for the vault: no scan of the folder for a turn that is over.
    if (signal?.aborted) return [];
    // The vault's catalog answers with the very same list while nothing in the folder changed.
    if (fromVault && fromVault === this.synced) {
      this.lastScan = { read: 0, reused: fromVault.length };
      return fromVault;
    }
    const before = new Set(this.files.values());
    const files = fromVault ?? (await scanMemoryFiles(this.options.memoryDir, { maxBytes: RECALL_READ_CHARS, cache: this.files }));
    if (fromVault) {
      this.files.clear();
      for (const f of fromVault) this.files.set(f.relPath, f);
    }
    const reused = files.filter((f) => before.has(f)).length;
    this.lastScan = { read: files.length - reused, reused };
    if (ahead.sliced && !(await this.buildInSlices(files, ahead.sliced, signal))) return [];
    this.ranker.sync(files);
    this.synced = files;
    return files;
  }

  /**
   * A first index built a slice at a time (the same index `sync` builds in one go, which held the loop
   * for a quarter of a second at 10,000 memories): each step syncs a longer run of the same list, so
   * nothing is removed on the way. False when stopped; the next scan completes it.
   */
  private async buildInSlices(files: readonly MemoryFile[], sliced: () => boolean, signal?: AbortSignal): Promise<boolean> {
    if (this.ranker.size > 0) return true;
    for (let end = WARM_SLICE; end < files.length && sliced(); end += WARM_SLICE) {
      this.ranker.sync(files.slice(0, end));
      await yieldToLoop();
      if (signal?.aborted) return false;
    }
    return true;
  }

  /** The folder's files among `seen` (absolute paths, or paths inside the folder), by relative path. */
  private seenIn(seen: ReadonlySet<string>): Set<string> {
    const out = new Set<string>();
    const prefix = this.options.memoryDir + path.sep;
    for (const p of seen) {
      const rel = p.startsWith(prefix) ? p.slice(prefix.length).split(path.sep).join('/') : p;
      if (this.files.has(rel)) out.add(rel);
    }
    return out;
  }

  /** A file deleted since the scan (by the user, a sync, a tidy pass) is skipped, not attached from memory. */
  private async stillThere(files: MemoryFile[]): Promise<{ present: MemoryFile[]; gone: MemoryFile[] }> {
    const exists = await Promise.all(files.map((f) => fs.stat(f.absPath).then((s) => s.isFile(), () => false)));
    return { present: files.filter((_, i) => exists[i]), gone: files.filter((_, i) => !exists[i]) };
  }
}
