import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic, writeJsonAtomic } from '../fs/index.js';
import { hashText } from './team-key.js';
import type { FaultSeam } from './fault-seam.js';
import type { Clock, Logger } from '../ports.js';

/**
 * What this device knows, persisted in `<vault>/.strata/team-sync/<owner>/<name>/`
 * (docs/sync-protocol.md#a-client-that-loses-nothing): per key the **base** (hash of the last version both sides agreed on; its text is kept
 * content-addressed in `bases/`), the server's hashes as last seen, the ETag, conflicts and deletions.
 * The outbox is derived, not listed: a key is pending whenever its file's hash differs from its base,
 * so it survives restarts, crashes and exhausted retries by construction.
 */
const stateSchema = z.object({
  format: z.literal(1),
  etag: z.string().nullable(),
  serverVersion: z.number().int().nullable(),
  maxEntries: z.number().int().positive().nullable(),
  // When `maxEntries` was learned; added after format 1 shipped (absent reads as "unknown age").
  maxEntriesLearnedAt: z.string().nullable().default(null),
  bases: z.record(z.string(), z.string()),
  remote: z.record(z.string(), z.string()),
  conflicts: z.record(
    z.string(),
    // theirsBy/theirsAt: who made the other side's change and when, as the server recorded it (optional: added later).
    z.object({ baseHash: z.string().nullable(), theirsHash: z.string(), detectedAt: z.string(), theirsBy: z.string().nullable().optional(), theirsAt: z.string().nullable().optional() }),
  ),
  deleted: z.record(z.string(), z.object({ hash: z.string(), deletedAt: z.string(), by: z.enum(['local', 'remote']) })),
  // `findings` came after format 1 shipped: optional, so older state files still read.
  blocked: z.record(
    z.string(),
    z.object({
      hash: z.string(),
      rule: z.string(),
      line: z.number().int(),
      findings: z.array(z.object({ rule: z.string(), line: z.number().int(), column: z.number().int().optional() })).optional(),
    }),
  ),
  lastSyncAt: z.string().nullable(),
  // Versions being pushed (key → hash sent) and pulled (key → hash written), noted before the request or
  // the rename, so one accepted or written just before a crash is recognized as the base next time.
  sending: z.record(z.string(), z.string()).default({}),
  pulling: z.record(z.string(), z.string()).default({}),
  // Files whose own step failed at the last run (their badge); added after format 1 shipped.
  failed: z.record(z.string(), z.object({ step: z.enum(['read', 'pull', 'push']), reason: z.string(), advice: z.string() })).default({}),
});

export type SyncState = z.infer<typeof stateSchema>;

export const emptyState = (): SyncState => ({
  format: 1,
  etag: null,
  serverVersion: null,
  maxEntries: null,
  maxEntriesLearnedAt: null,
  bases: {},
  remote: {},
  conflicts: {},
  deleted: {},
  blocked: {},
  lastSyncAt: null,
  sending: {},
  pulling: {},
  failed: {},
});

/** Forgets restorable deletions older than `before` (epoch ms): tombstones live `tombstoneDays` (docs/memory.md#team-memory). */
export function expireDeleted(state: SyncState, before: number): void {
  for (const [key, record] of Object.entries(state.deleted)) {
    if (Date.parse(record.deletedAt) < before) delete state.deleted[key];
  }
}

/** True when the server's hashes (from a hash probe) show a change whose text was never fetched. */
export function missingRemoteContent(state: SyncState): boolean {
  return Object.keys(state.remote).some((key) => state.remote[key] !== state.bases[key] && state.conflicts[key]?.theirsHash !== state.remote[key]);
}

/** A pack of base texts (`pack-<12 hex>.json`, hash → text), written by one save after a pull. */
const packPrefix = 'pack-';
const packSuffix = '.json';
const isPackName = (name: string) => name.startsWith(packPrefix) && name.endsWith(packSuffix);
const newPackName = () => `${packPrefix}${randomBytes(6).toString('hex')}${packSuffix}`;
/** Beyond this many packs, garbage collection merges them (a base lookup outside a pack reads them all). */
const maxPacks = 8;

/** The state file, the base texts and the conflict copies ("theirs") of one repository. */
export class SyncStateStore {
  readonly stateFile: string;
  readonly basesDir: string;
  readonly conflictsDir: string;
  /** Hashes whose base file is known to exist (this process wrote or saw it). */
  private readonly known = new Set<string>();
  /** Base texts kept by `keepBase`, not yet written (the next `save` writes them as one pack). */
  private readonly pending = new Map<string, string>();
  /** Pack name → the hashes it holds, as this process wrote or first read it. */
  private readonly packIndex = new Map<string, Set<string>>();
  /** The pack `readPack` read last (see there). */
  private lastPack: { name: string; texts: Record<string, string> } | null = null;
  private basesReady = false;
  /** Why a state file was last set aside, until the engine reports it (see `takeSetAside`). */
  private setAsideNotice: string | null = null;

  constructor(
    readonly dir: string,
    private readonly fault: FaultSeam,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {
    this.stateFile = path.join(dir, 'state.json');
    this.basesDir = path.join(dir, 'bases');
    this.conflictsDir = path.join(dir, 'conflicts');
  }

  /**
   * A state file that is not JSON or not our shape is renamed `state.json.invalid-<time>` (kept for a
   * look, never overwritten by the next save) and the run starts from an empty state: with no base, every
   * file is a both-sides case, so equal content is recorded and different content becomes a conflict with
   * both kept — nothing is lost. A file that cannot be *read* (EACCES, EIO) fails the run instead.
   */
  async load(): Promise<SyncState> {
    let raw: unknown;
    try {
      raw = await readJsonFile(this.stateFile);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return this.setAside('it is not valid JSON');
    }
    if (raw === undefined) return emptyState();
    const parsed = stateSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    return this.setAside(`it does not have the expected shape (${issue?.path.join('.') || 'top level'}: ${issue?.message ?? 'invalid'})`);
  }

  /** The notice of a state file set aside since the last call, for the run's report. */
  takeSetAside(): string | null {
    const notice = this.setAsideNotice;
    this.setAsideNotice = null;
    return notice;
  }

  private async setAside(reason: string): Promise<SyncState> {
    const stamp = new Date(this.clock.now()).toISOString().replace(/[:.]/g, '-');
    const kept = `${this.stateFile}.invalid-${stamp}`;
    await fs.rename(this.stateFile, kept);
    this.setAsideNotice = `the team sync state was invalid (${reason}); kept it as ${path.basename(kept)} and started from an empty state, so files that differ from the server show as conflicts`;
    this.logger.warn('team sync state file was invalid; set aside, starting from an empty state', { file: kept, reason });
    return emptyState();
  }

  /** Named fault points around every state write (docs/memory.md#team-sync: crash tests). */
  async save(state: SyncState): Promise<void> {
    // Bases first: a saved state never names a base that is not on disk.
    await this.flushBases();
    this.fault.hit('before-state-write');
    await writeJsonAtomic(this.stateFile, state);
    this.fault.hit('after-state-write');
  }

  /**
   * Keeps a text by its hash, before any state that references it. Temp + rename without fsync: a base
   * text is checked against its hash when read, so one lost to a power cut reads as "no base" (a
   * conflict shown without its base), never as wrong content; skipping 5,000 fsyncs keeps a first
   * pull fast.
   */
  async putBase(text: string): Promise<string> {
    const hash = hashText(text);
    const file = this.baseFile(hash);
    if (this.known.has(hash)) return hash;
    // No existence check first: writing an identical base again is harmless, and a first pull of
    // thousands of files saves a system call each (and the folder is made once per process).
    if (!this.basesReady) {
      await fs.mkdir(this.basesDir, { recursive: true });
      this.basesReady = true;
    }
    const temp = path.join(this.basesDir, `.${hash.slice(7, 23)}.${randomBytes(4).toString('hex')}.tmp`);
    await fs.writeFile(temp, text).catch(async (error: NodeJS.ErrnoException) => {
      // The folder was removed since (a reset of the sync state): make it again.
      if (error.code !== 'ENOENT') throw error;
      await fs.mkdir(this.basesDir, { recursive: true });
      await fs.writeFile(temp, text);
    });
    await fs.rename(temp, file);
    this.known.add(hash);
    return hash;
  }

  /**
   * Keeps `text` (which hashes to `hash`) as a base text in memory until the next `save`, which writes
   * every such text as one pack before the state can name them. A first pull of thousands of files then
   * costs one write for all their bases instead of a copy each. A crash before that save loses only
   * bases no saved state names: a pulled file found equal to the server's next time is its own base again.
   */
  keepBase(text: string, hash: string): void {
    if (this.known.has(hash)) return;
    this.pending.set(hash, text);
    this.known.add(hash);
  }

  async getBase(hash: string | null | undefined): Promise<string | null> {
    if (!hash) return null;
    const text = this.pending.get(hash) ?? (await fs.readFile(this.baseFile(hash), 'utf8').catch(() => null)) ?? (await this.findInPacks(hash));
    return text !== null && hashText(text) === hash ? text : null;
  }

  /** The base texts a pull kept in memory, written as one pack (temp + rename, unsynced like `putBase`). */
  private async flushBases(): Promise<void> {
    if (this.pending.size === 0) return;
    const texts = Object.fromEntries(this.pending);
    await fs.mkdir(this.basesDir, { recursive: true });
    await this.writePack(newPackName(), texts);
    this.pending.clear();
  }

  private async writePack(name: string, texts: Record<string, string>): Promise<void> {
    const temp = path.join(this.basesDir, `.${randomBytes(8).toString('hex')}.${randomBytes(4).toString('hex')}.tmp`);
    await fs.writeFile(temp, JSON.stringify(texts));
    await fs.rename(temp, path.join(this.basesDir, name));
    this.packIndex.set(name, new Set(Object.keys(texts)));
  }

  /** The hashes a pack holds: known from writing it, or read once (every sync's garbage collection asks). */
  private async packHashes(name: string): Promise<Set<string>> {
    let hashes = this.packIndex.get(name);
    if (!hashes) {
      hashes = new Set(Object.keys(await this.readPack(name)));
      this.packIndex.set(name, hashes);
    }
    return hashes;
  }

  /**
   * A pack's texts by hash; a pack torn by a power cut reads as empty (its bases as missing, like a lost
   * loose base). The last pack read is kept: packs never change once written (GC writes a new one under a
   * new name), and a sync merging many files after a large pull would otherwise parse it once per file.
   */
  private async readPack(name: string): Promise<Record<string, string>> {
    if (this.lastPack?.name === name) return this.lastPack.texts;
    const raw = await fs.readFile(path.join(this.basesDir, name), 'utf8').catch(() => null);
    if (raw === null) return {};
    let texts: Record<string, string> = {};
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) texts = parsed as Record<string, string>;
    } catch {
      // Torn: its bases are missing.
    }
    this.lastPack = { name, texts };
    return texts;
  }

  private async packNames(): Promise<string[]> {
    const names = await fs.readdir(this.basesDir).catch(() => [] as string[]);
    return names.filter(isPackName);
  }

  /** Looked up only when a base is needed and not loose (a merge or a conflict). */
  private async findInPacks(hash: string): Promise<string | null> {
    for (const name of await this.packNames()) {
      if (!(await this.packHashes(name)).has(hash)) continue;
      const text = (await this.readPack(name))[hash];
      if (typeof text === 'string') return text;
    }
    return null;
  }

  conflictFile(key: string): string {
    return path.join(this.conflictsDir, ...key.split('/'));
  }

  async writeConflict(key: string, theirs: string): Promise<void> {
    await writeFileAtomic(this.conflictFile(key), theirs);
  }

  async readConflict(key: string): Promise<string | null> {
    return fs.readFile(this.conflictFile(key), 'utf8').catch(() => null);
  }

  async removeConflict(key: string): Promise<void> {
    await fs.rm(this.conflictFile(key), { force: true });
  }

  /** Drops base texts no longer referenced by a base, a conflict or a restorable deletion (packed ones in bulk, see `collectPacks`). */
  async collectGarbage(state: SyncState): Promise<void> {
    const live = new Set<string>([
      ...Object.values(state.bases),
      ...Object.values(state.conflicts).flatMap((c) => (c.baseHash ? [c.baseHash] : [])),
      ...Object.values(state.deleted).map((d) => d.hash),
      ...Object.values(state.sending),
      ...Object.values(state.pulling),
    ]);
    const names = await fs.readdir(this.basesDir).catch(() => [] as string[]);
    const dead = names.filter((n) => !n.startsWith('.') && !isPackName(n) && !live.has(`sha256:${n}`));
    for (const n of dead) this.known.delete(`sha256:${n}`);
    await Promise.all(dead.map((n) => fs.rm(path.join(this.basesDir, n), { force: true })));
    await this.collectPacks(names.filter(isPackName), live);
  }

  /**
   * When a quarter of the packed texts are dead, or there are more than `maxPacks` packs (one per pull
   * that fetched new files), they are rewritten as one pack of their live texts; below that a few dead
   * texts wait, so one edited file does not rewrite a first pull's whole pack at every sync. The new pack
   * is in place before the old ones go: a crash in between leaves a text twice, never missing.
   */
  private async collectPacks(names: string[], live: Set<string>): Promise<void> {
    let total = 0;
    let dead = 0;
    for (const name of names) {
      for (const hash of await this.packHashes(name)) {
        total++;
        if (!live.has(hash)) dead++;
      }
    }
    if (names.length <= maxPacks && (dead === 0 || dead * 4 < total)) return;
    const kept: Record<string, string> = {};
    for (const name of names) {
      for (const [hash, text] of Object.entries(await this.readPack(name))) {
        if (live.has(hash)) kept[hash] = text;
        else this.known.delete(hash);
      }
    }
    if (Object.keys(kept).length > 0) await this.writePack(newPackName(), kept);
    await Promise.all(names.map((name) => fs.rm(path.join(this.basesDir, name), { force: true })));
    for (const name of names) this.packIndex.delete(name);
    this.lastPack = null;
  }

  private baseFile(hash: string): string {
    return path.join(this.basesDir, hash.replace(/^sha256:/, ''));
  }
}
