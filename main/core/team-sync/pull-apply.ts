import { WriteBatch } from '../fs/index.js';
import { commitLocalFile, readLocalFile, readLocalTree, removeLocalFile, stageLocalFile, writeLocalFile, type LocalTree, type StagedFile, type WrittenFiles } from './local-tree.js';
import { describeFileFailure } from './file-failure.js';
import { InjectedCrash } from './fault-seam.js';
import { merge3 } from '../../../common/text/merge3.js';
import { hashText, teamKeyProblem } from './team-key.js';
import type { Snapshot } from './team-api.js';
import type { SyncState, SyncStateStore } from './sync-state.js';
import type { FaultSeam } from './fault-seam.js';
import type { Clock, Logger } from '../ports.js';
import type { SyncReport } from './sync-types.js';

/** What applying a pull needs: the engine passes its own parts. */
export interface PullContext {
  teamDir: string;
  store: SyncStateStore;
  state: SyncState;
  report: SyncReport;
  fault: FaultSeam;
  clock: Clock;
  logger: Logger;
  progress(done: number, total: number): void;
  /** Who last changed a key on the server and when (best effort; null when unknown). */
  describe?(key: string): Promise<{ updatedBy: string | null; updatedAt: string | null } | null>;
  /** Folders checked for symlinks during this pull. */
  checkedFolders?: Map<string, Promise<void>>;
  /** Where the downloads are noted, so the run's later reads of the tree need not read them again. */
  written?: WrittenFiles;
}

/**
 * Applies a server snapshot with the decision table of docs/sync-protocol.md#a-client-that-loses-nothing, per key, against the
 * base: server wins only for files unchanged locally (docs/memory.md#team-memory). `snapshot` null = the server has no
 * memory (404). A `rollback` (version went back, or memory vanished) never deletes or overwrites
 * local files: their content is re-uploaded instead (docs/sync-protocol.md#a-client-that-loses-nothing test 7).
 */
export async function applySnapshot(ctx: PullContext, snapshot: Snapshot | null, rollback: boolean): Promise<void> {
  const { state, store, report, teamDir } = ctx;
  const entries = snapshot?.entries ?? {};
  const sums = snapshot?.entryChecksums ?? {};
  const tombstones = snapshot?.tombstones ?? {};
  const mtime = snapshot?.lastModified ? new Date(snapshot.lastModified) : null;
  const local = await readLocalTree(teamDir);
  const keys = [...new Set([...Object.keys(sums), ...Object.keys(tombstones), ...Object.keys(state.bases), ...Object.keys(state.conflicts)])].sort();
  if (rollback) {
    report.warnings.push('the team server went back to an older state; local files are kept and uploaded again');
    ctx.logger.warn('team server rolled back', { version: snapshot?.version ?? null, known: state.serverVersion });
  }
  // Every version about to be written is noted first (one state write), so a crash right after a
  // rename is recognized at the next run rather than shown as a conflict (adoptUnrecordedBase).
  // Only files that exist here and will be replaced need it: a new file that is there after a crash
  // already equals the server's.
  let noted = false;
  for (const key of keys) {
    const remote = sums[key];
    const text = entries[key];
    const mine = local.get(key)?.hash;
    if (remote === undefined || text === undefined || mine === undefined || mine === remote || mine !== state.bases[key]) continue;
    if ((await store.putBase(text)) !== remote) continue;
    state.pulling[key] = remote;
    noted = true;
  }
  if (noted) await store.save(state);
  let done = 0;
  ctx.checkedFolders ??= new Map();
  // Downloads are written first and renamed into place after one flush for all (WriteBatch): a first
  // pull of thousands of files waits for the disk once, not once per file.
  const incoming = keys.filter((key) => sums[key] !== undefined && sums[key] !== state.bases[key]).length;
  const run: PullRun = { ...ctx, checkedFolders: ctx.checkedFolders, batch: new WriteBatch({ expectedFiles: incoming }), downloads: [] };
  try {
    // Keys are independent; a few at a time overlaps each file's system calls.
    await forEachLimit(keys, 32, async (key) => {
      ctx.progress(done++, keys.length);
      const problem = teamKeyProblem(key);
      if (problem) {
        // Stored by a server without today's key rules: never written here, shown with its reason.
        report.failed.push({ key, step: 'pull', reason: `this device cannot hold its name: ${problem}`, advice: 'ask the teammate who added it to rename it' });
        return;
      }
      await isolated(ctx, key, () => applyKey(run, key, local, entries, sums, tombstones, mtime, rollback));
    });
    await run.batch.flush();
    const fresh = run.downloads.filter((download) => download.expected === null);
    for (let start = 0; start < fresh.length; start += placeChunk) await placeNewFiles(run, fresh.slice(start, start + placeChunk), mtime);
    const replacing = run.downloads.filter((download) => download.expected !== null);
    await forEachLimit(replacing, 32, (download) => isolated(ctx, download.staged.key, () => replaceFile(run, download, mtime)));
  } catch (error) {
    // A crash injected by a test: nothing staged is left beside the files (a renamed one is already gone).
    await Promise.all(run.downloads.map((download) => run.batch.discard(download.staged.temp)));
    throw error;
  } finally {
    await run.batch.close();
  }
  ctx.progress(keys.length, keys.length);
}

/** One pull's run: the caller's context plus the batch its downloads are written through. */
interface PullRun extends PullContext {
  checkedFolders: Map<string, Promise<void>>;
  batch: WriteBatch;
  /** Staged downloads waiting for the batch's flush. */
  downloads: PendingDownload[];
}

/** New files placed by one request to the batch's worker. */
const placeChunk = 256;

/** A download written beside its file, renamed into place by `placeNewFiles` or `replaceFile`. */
interface PendingDownload {
  staged: StagedFile;
  text: string;
  /** The text's hash, checked against the server's checksum. */
  hash: string;
  /** What the file held when the pull planned this (null: absent); the re-check compares against it. */
  expected: string | null;
  base: string | null;
}

/**
 * One file that cannot be written here (a name too long for this disk, a folder in its way) waits with
 * its reason; every other file still pulls (isolation, docs on team sync).
 */
async function isolated(ctx: PullContext, key: string, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (error instanceof InjectedCrash) throw error;
    ctx.report.failed.push(describeFileFailure(key, 'pull', error));
    ctx.logger.warn('team memory file could not be pulled; the others went on', { key, code: (error as NodeJS.ErrnoException).code ?? null });
  }
}

async function applyKey(
  ctx: PullRun,
  key: string,
  local: LocalTree,
  entries: Record<string, string>,
  sums: Record<string, string>,
  tombstones: Record<string, unknown>,
  mtime: Date | null,
  rollback: boolean,
): Promise<void> {
    const { state, store } = ctx;
    const remote = sums[key] ?? null;
    // A file this device does not sync (a dot-file) still has content that must not be overwritten unseen.
    const mineFile = local.get(key) ?? (local.isIgnored(key) ? await readLocalFile(ctx.teamDir, key) : null);
    const mine = mineFile?.hash ?? null;
    adoptUnrecordedBase(state, key, remote, mine);
    const base = state.bases[key] ?? null;
    const conflict = state.conflicts[key];

    if (remote === null) {
      if (key in tombstones && !rollback) await applyRemoteDeletion(ctx, key, base, mine);
      else if (base !== null) delete state.bases[key]; // The server forgot it: local-only again, so the push re-uploads it.
      return;
    }
    const text = entries[key];
    if (text === undefined || hashText(text) !== remote) {
      ctx.report.warnings.push(`the server's copy of ${key} did not match its checksum; kept the local file`);
      return;
    }
    if (conflict) {
      if (mine === remote) {
        state.bases[key] = await store.putBase(text);
        delete state.conflicts[key];
        await store.removeConflict(key);
      } else if (conflict.theirsHash !== remote) {
        await store.writeConflict(key, text);
        conflict.theirsHash = remote;
        Object.assign(conflict, await whoChanged(ctx, key));
      }
      return;
    }
    if (remote === base) return;
    if (mine === remote) {
      state.bases[key] = await store.putBase(text);
      return;
    }
    if (rollback && mine !== null && mine === base) {
      // The server's copy is older than what we agreed on: treat it as the base, so ours uploads.
      state.bases[key] = await store.putBase(text);
      return;
    }
    // Unchanged locally (or deleted locally while a teammate edited: the edit wins): take theirs.
    if (mine === base || mine === null) {
      const staged = await stageLocalFile(ctx.teamDir, key, text, ctx.batch, ctx.checkedFolders, mine === null);
      ctx.downloads.push({ staged, text, hash: remote, expected: mine, base });
      return;
    }
    if (mineFile && (await mergeBothSides(ctx, key, mineFile.text, mine, text, base, mtime))) return;
    await recordConflict(ctx, key, text, base);
}

/**
 * A version this device knows the server held, though the state never recorded it as the base: a PUT
 * accepted whose answer or state save was lost (the server's checksum is what we sent), or a pulled
 * file renamed into place just before a crash (the file is what we were pulling). Either is the base
 * both sides agreed on, so the user's own earlier text never shows as a teammate's conflict.
 */
export function adoptUnrecordedBase(state: SyncState, key: string, remote: string | null, mine: string | null): void {
  const sent = state.sending[key];
  if (sent !== undefined && remote === sent) state.bases[key] = sent;
  const pulled = state.pulling[key];
  if (pulled !== undefined && mine === pulled) state.bases[key] = pulled;
  if (state.bases[key] === sent) delete state.sending[key];
  if (state.bases[key] === pulled) delete state.pulling[key];
}

/**
 * Both sides changed the file: merge them line by line against the stored base (common/text/merge3,
 * the diff3 Joplin and git use). Edits to different lines merge cleanly: the merged text replaces the
 * local file (unless it changed meanwhile) and, with the server's version as the new base, is pushed
 * by this same run. Only overlapping edits, or a missing base, become a conflict.
 */
async function mergeBothSides(ctx: PullContext, key: string, mineText: string, mine: string, theirs: string, base: string | null, mtime: Date | null): Promise<boolean> {
  const baseText = await ctx.store.getBase(base);
  if (baseText === null) return false;
  const merged = merge3(baseText, mineText, theirs);
  if (!merged.clean) return false;
  const theirsHash = await ctx.store.putBase(theirs);
  const unchanged = async () => ((await readLocalFile(ctx.teamDir, key))?.hash ?? null) === mine;
  if (!(await writeLocalFile(ctx.teamDir, key, merged.text, mtime, ctx.checkedFolders, unchanged))) return false;
  ctx.state.bases[key] = theirsHash;
  ctx.report.merged.push(key);
  ctx.logger.info('team memory file changed on both sides; merged the edits', { key });
  return true;
}

/** Runs `task` over `items`, at most `limit` at once. */
async function forEachLimit<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Renames downloads of files absent when the pull planned them into place, a chunk at a time (the
 * batch's worker does it with synchronous calls). Each is re-checked right before its rename (Syncthing's
 * re-check before replacing, issue #3742): a file the user created there meanwhile stays, and the
 * server's version becomes a conflict.
 */
async function placeNewFiles(ctx: PullRun, chunk: PendingDownload[], mtime: Date | null): Promise<void> {
  for (let i = 0; i < chunk.length; i++) ctx.fault.hit('before-pull-rename');
  const placements = await ctx.batch.placeNew(chunk.map(({ staged }) => ({ temp: staged.temp, file: staged.file, mtime })));
  for (const [i, download] of chunk.entries()) {
    const placement = placements[i]!;
    await isolated(ctx, download.staged.key, async () => {
      if (placement instanceof Error) throw placement;
      if (placement === 'taken') return keptTheirs(ctx, download);
      // The base text is the download itself; the store writes it before any state names it.
      ctx.store.keepBase(download.text, download.hash);
      ctx.fault.hit('after-pull-rename');
      recordDownload(ctx, download, mtime);
    });
  }
}

/**
 * Renames a download over the file it replaces unless the file changed since the pull planned it. The
 * re-check runs with the download on disk, right before the rename, so a save made while the pull was
 * writing is never overwritten. A save in the microseconds between re-check and rename is the only
 * window left; no rename can compare-and-swap.
 */
async function replaceFile(ctx: PullRun, download: PendingDownload, mtime: Date | null): Promise<void> {
  const { staged, text, hash, expected } = download;
  const unchanged = async () => {
    ctx.fault.hit('before-pull-rename');
    const still = ((await readLocalFile(ctx.teamDir, staged.key))?.hash ?? null) === expected;
    if (still) ctx.store.keepBase(text, hash);
    return still;
  };
  if (!(await commitLocalFile(ctx.batch, staged, mtime, unchanged))) return keptTheirs(ctx, download);
  ctx.fault.hit('after-pull-rename');
  recordDownload(ctx, download, mtime);
}

/** The file changed while its download was written: the user's version stays, the server's waits as a conflict. */
async function keptTheirs(ctx: PullRun, download: PendingDownload): Promise<void> {
  ctx.logger.info('team memory file changed during the pull; kept it and the server copy', { key: download.staged.key });
  await recordConflict(ctx, download.staged.key, download.text, download.base);
}

function recordDownload(ctx: PullRun, { staged: { key }, text, hash }: PendingDownload, mtime: Date | null): void {
  if (mtime && !Number.isNaN(mtime.getTime())) ctx.written?.note({ key, text, hash, bytes: Buffer.byteLength(text, 'utf8') }, mtime);
  ctx.state.bases[key] = hash;
  delete ctx.state.pulling[key];
  delete ctx.state.deleted[key];
  ctx.report.pulled.push(key);
}

/** Both sides changed (docs/sync-protocol.md#a-client-that-loses-nothing "real conflict"): mine stays in place, theirs waits aside. */
async function recordConflict(ctx: PullContext, key: string, theirs: string, base: string | null): Promise<void> {
  await ctx.store.writeConflict(key, theirs);
  const who = await whoChanged(ctx, key);
  ctx.state.conflicts[key] = { baseHash: base, theirsHash: hashText(theirs), detectedAt: new Date(ctx.clock.now()).toISOString(), ...who };
  ctx.logger.info('team memory conflict kept both versions', { key });
}

/** A tombstone: delete only a file unchanged since the base, and keep its text restorable (docs/memory.md#team-memory). */
async function applyRemoteDeletion(ctx: PullContext, key: string, base: string | null, mine: string | null): Promise<void> {
  const { state } = ctx;
  if (base === null) return; // Never had it, or a new local file under a deleted name: the push uploads it.
  if (mine === base) {
    const now = (await readLocalFile(ctx.teamDir, key))?.hash ?? null;
    if (now !== base) return; // Edited a moment ago: the edit wins at the next run.
    state.deleted[key] = { hash: base, deletedAt: new Date(ctx.clock.now()).toISOString(), by: 'remote' };
    await removeLocalFile(ctx.teamDir, key);
    ctx.report.pulled.push(key);
  } else if (mine === null) {
    state.deleted[key] ??= { hash: base, deletedAt: new Date(ctx.clock.now()).toISOString(), by: 'remote' };
  }
  // Edited locally while a teammate deleted it: the edit wins and uploads as a new file.
  delete state.bases[key];
}

/** The server's record of who made the other side's change and when; never fails the pull. */
async function whoChanged(ctx: PullContext, key: string): Promise<{ theirsBy: string | null; theirsAt: string | null }> {
  const info = await ctx.describe?.(key).catch(() => null);
  return { theirsBy: info?.updatedBy ?? null, theirsAt: info?.updatedAt ?? null };
}
