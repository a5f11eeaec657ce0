import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { Sequencer } from '../../../common/async/sequencer.js';
import { AppFailure } from '../../../common/result.js';
import type { ChangeAuthor, HistoryVersion } from '../../../common/domain/vault.js';
import type { Clock, Logger } from '../ports.js';
import { readJsonFile, writeFileAtomic, writeJsonAtomic } from '../fs/index.js';
import { sha256 } from './file-scan.js';
import { STATE_DIR } from './vault-paths.js';

/** One file's history: its versions oldest first, and the deletion if the file was deleted. */
interface FileHistory {
  path: string;
  versions: HistoryVersion[];
  deleted: { at: string; hash: string } | null;
  /** Who made the content now on disk, since when: it becomes that version's author once snapshotted. */
  head?: { hash: string; author: ChangeAuthor; at: string; since: string };
}

/** How a write is recorded: who makes the new content, and whether it may fold into a burst. */
export interface SnapshotWriter {
  author: ChangeAuthor;
  /** An autosave: the content it replaces is not kept if the same author made it moments ago. */
  coalesce?: boolean;
}

/** Autosaves of one author closer than this apart are one history entry... */
const BURST_GAP_MS = 60_000;
/** ...but a long session still leaves a version this often. */
const BURST_MAX_MS = 10 * 60_000;

const sameAuthor = (a: ChangeAuthor, b: ChangeAuthor) => a.kind === b.kind && a.sessionId === b.sessionId && a.label === b.label;

export interface HistoryRetention {
  days: number;
  maxBytes: number;
}

const DAY_MS = 86_400_000;
const HEX64 = /^[a-f0-9]{64}$/;

/**
 * Local snapshots of memory files (docs/memory.md#vault-upkeep): blobs named by their sha256 (never `.md`, so no
 * tool mistakes a snapshot for a memory) under `.strata/history/blobs/`, one index JSON per file path
 * under `.strata/history/files/`. Kept `days` days and `maxBytes` in all, oldest out first.
 */
export class HistoryStore {
  private readonly dir: string;
  private readonly root: string;
  private files: Map<string, FileHistory> | null = null;
  /** Every read-modify-write of the history index, one at a time. */
  private readonly queue = new Sequencer();

  constructor(
    root: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly retention: HistoryRetention,
  ) {
    this.root = root;
    this.dir = path.join(root, STATE_DIR, 'history');
  }

  /**
   * Saves `content` as a version of `rel` unless it already is the newest one; returns the version.
   * Runs retention afterwards, so the store never grows past its limits.
   */
  snapshot(rel: string, content: string | Uint8Array, reason: string): Promise<HistoryVersion> {
    return this.save(rel, content, reason, undefined) as Promise<HistoryVersion>;
  }

  /**
   * The snapshot before a write by `writer`: as `snapshot`, except that an autosave replacing what the
   * same author saved moments ago keeps nothing (null) — a burst of autosaves is one history entry.
   */
  snapshotBeforeWrite(rel: string, content: string | Uint8Array, reason: string, writer: SnapshotWriter): Promise<HistoryVersion | null> {
    return this.save(rel, content, reason, writer);
  }

  private save(rel: string, content: string | Uint8Array, reason: string, writer: SnapshotWriter | undefined): Promise<HistoryVersion | null> {
    return this.queue.run(async () => {
      // A vanished vault root must not be re-created by a snapshot (docs/memory.md#vault-upkeep: root-missing state).
      if (!(await exists(this.root))) throw new AppFailure('not_found', `The vault folder ${this.root} is gone`);
      const files = await this.load();
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
      const hash = sha256(bytes);
      const history = files.get(rel) ?? { path: rel, versions: [], deleted: null };
      const newest = history.versions.at(-1);
      if (newest?.hash === hash) return newest;
      const head = history.head?.hash === hash ? history.head : undefined;
      const now = this.clock.now();
      if (
        writer?.coalesce && head && sameAuthor(head.author, writer.author) &&
        now - Date.parse(head.at) < BURST_GAP_MS && now - Date.parse(head.since) < BURST_MAX_MS
      ) {
        return null; // the middle of a burst of autosaves: the burst's start is kept, and its end is the file
      }
      const blob = this.blobPath(hash);
      if (!(await exists(blob))) await writeFileAtomic(blob, bytes, { mode: 0o600, dirMode: 0o700 });
      const version: HistoryVersion = { hash, savedAt: new Date(now).toISOString(), size: bytes.length, reason };
      if (head) version.author = head.author;
      history.versions.push(version);
      files.set(rel, history);
      await this.saveIndex(history);
      await this.pruneLocked();
      return version;
    });
  }

  /**
   * Records who made the content now on disk (hash `hash`), so the version it becomes when replaced
   * says so. The same author writing again within a burst keeps the burst's start.
   */
  recordHead(rel: string, hash: string, author: ChangeAuthor): Promise<void> {
    return this.queue.run(async () => {
      if (!(await exists(this.root))) return;
      const files = await this.load();
      const history = files.get(rel) ?? { path: rel, versions: [], deleted: null };
      const now = this.clock.now();
      const at = new Date(now).toISOString();
      const old = history.head;
      const inBurst = old && sameAuthor(old.author, author) && now - Date.parse(old.at) < BURST_GAP_MS && now - Date.parse(old.since) < BURST_MAX_MS;
      history.head = { hash, author, at, since: inBurst ? old.since : at };
      files.set(rel, history);
      await this.saveIndex(history);
    });
  }

  /** Who made the content now on disk, when known (the History panel's "Current version"). */
  async currentAuthor(rel: string): Promise<{ author: ChangeAuthor; savedAt: string } | null> {
    const head = (await this.load()).get(rel)?.head;
    return head ? { author: head.author, savedAt: head.at } : null;
  }

  /** Versions of one file, newest first. */
  async timeline(rel: string): Promise<HistoryVersion[]> {
    const files = await this.load();
    return [...(files.get(rel)?.versions ?? [])].reverse();
  }

  /** The text of one saved version; `not_found` if it is not (or no longer) kept. */
  async readVersion(rel: string, hash: string): Promise<string> {
    const files = await this.load();
    if (!HEX64.test(hash) || !files.get(rel)?.versions.some((v) => v.hash === hash)) {
      throw new AppFailure('not_found', `No saved version ${hash.slice(0, 12)} of ${rel}`);
    }
    try {
      return await fs.readFile(this.blobPath(hash), 'utf8');
    } catch {
      throw new AppFailure('not_found', `The saved version ${hash.slice(0, 12)} of ${rel} is missing from the history folder`);
    }
  }

  /** A unified diff from `before` to `after` (the `diff` package), labelled with the file's path. */
  diff(rel: string, before: string, after: string, labels: [string, string] = ['saved', 'current']): string {
    return createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after, labels[0], labels[1]);
  }

  /** Records that `rel` was deleted; `hash` is its last content's version (already snapshotted). */
  markDeleted(rel: string, hash: string): Promise<void> {
    return this.queue.run(async () => {
      const files = await this.load();
      const history = files.get(rel);
      if (!history) return;
      history.deleted = { at: new Date(this.clock.now()).toISOString(), hash };
      await this.saveIndex(history);
    });
  }

  /** Clears the deletion mark once the file exists again (restored, undone, re-created). */
  markPresent(rel: string): Promise<void> {
    return this.queue.run(async () => {
      const history = (await this.load()).get(rel);
      if (!history?.deleted) return;
      history.deleted = null;
      await this.saveIndex(history);
    });
  }

  /** Deleted files whose last version is still kept, newest deletion first. */
  async listDeleted(): Promise<{ path: string; deletedAt: string; hash: string }[]> {
    const files = await this.load();
    return [...files.values()]
      .filter((h) => h.deleted && h.versions.some((v) => v.hash === h.deleted!.hash))
      .map((h) => ({ path: h.path, deletedAt: h.deleted!.at, hash: h.deleted!.hash }))
      .sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));
  }

  /** Bytes the kept blobs take (each distinct content once). */
  async totalBytes(): Promise<number> {
    return blobBytes(await this.load());
  }

  /** Applies retention now (also done after every snapshot). */
  prune(): Promise<void> {
    return this.queue.run(() => this.pruneLocked());
  }

  private async pruneLocked(): Promise<void> {
    const files = await this.load();
    const cutoff = this.clock.now() - this.retention.days * DAY_MS;
    const touched = new Set<FileHistory>();
    for (const h of files.values()) {
      const kept = h.versions.filter((v) => Date.parse(v.savedAt) >= cutoff);
      if (kept.length !== h.versions.length) {
        h.versions = kept;
        touched.add(h);
      }
    }
    let total = blobBytes(files);
    if (total > this.retention.maxBytes) {
      const all = [...files.values()].flatMap((h) => h.versions.map((v) => ({ h, v }))).sort((a, b) => a.v.savedAt.localeCompare(b.v.savedAt));
      for (const { h, v } of all) {
        if (total <= this.retention.maxBytes) break;
        h.versions = h.versions.filter((x) => x !== v);
        touched.add(h);
        total = blobBytes(files);
      }
    }
    if (touched.size === 0) return;
    const live = new Set([...files.values()].flatMap((h) => h.versions.map((v) => v.hash)));
    for (const h of touched) {
      if (h.versions.length === 0 && !h.head) files.delete(h.path);
      await this.saveIndex(h);
    }
    const blobs = await fs.readdir(path.join(this.dir, 'blobs')).catch(() => [] as string[]);
    await Promise.all(blobs.filter((b) => HEX64.test(b) && !live.has(b)).map((b) => fs.rm(this.blobPath(b), { force: true })));
  }

  private async load(): Promise<Map<string, FileHistory>> {
    if (this.files) return this.files;
    const files = new Map<string, FileHistory>();
    const indexDir = path.join(this.dir, 'files');
    const names = await fs.readdir(indexDir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      try {
        const raw = (await readJsonFile(path.join(indexDir, name))) as FileHistory | undefined;
        if (raw && typeof raw.path === 'string' && Array.isArray(raw.versions)) files.set(raw.path, { ...raw, deleted: raw.deleted ?? null });
      } catch (error) {
        // A damaged index loses that file's timeline, never the vault's files.
        this.logger.warn('history: unreadable index file skipped', { name, error: String(error) });
      }
    }
    this.files = files;
    return files;
  }

  private async saveIndex(history: FileHistory): Promise<void> {
    if (!(await exists(this.root))) return;
    const file = path.join(this.dir, 'files', `${sha256(history.path)}.json`);
    if (history.versions.length === 0 && !history.head) await fs.rm(file, { force: true });
    else await writeJsonAtomic(file, history, { mode: 0o600, dirMode: 0o700 });
  }

  private blobPath(hash: string): string {
    return path.join(this.dir, 'blobs', hash);
  }

}

function blobBytes(files: Map<string, FileHistory>): number {
  const sizes = new Map<string, number>();
  for (const h of files.values()) for (const v of h.versions) sizes.set(v.hash, v.size);
  let total = 0;
  for (const s of sizes.values()) total += s;
  return total;
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );
