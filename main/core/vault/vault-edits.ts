import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { AppFailure } from '../../../common/result.js';
import type { HistoryVersion, IndexLineSkipped, VaultFileMeta, WrittenMemory } from '../../../common/domain/vault.js';
import { renderMemoryFile } from '../../../common/memory-file/index.js';
import { sha256 } from './file-scan.js';
import { writeVaultFile } from './file-writer.js';
import type { MemoryIndexEdits } from './index-edits.js';
import { parseMarkdown } from './markdown-view.js';
import { INDEX_FILE, parseIndex, removeFromIndex, retargetIndex } from './memory-index.js';
import type { VaultContext } from './vault-context.js';
import { classifyVaultPath, isMemoryFile, isMemoryScope, memoryDir, memoryDirOf } from './vault-paths.js';

/**
 * The user's own actions on files: create a memory, mark one reviewed, rename, delete with Undo,
 * and history (versions, restore). Each runs under the vault's one mutation lock and keeps MEMORY.md
 * in step through the index edits.
 */
export class VaultEdits {
  private readonly undo = new Map<string, { path: string; hash: string; indexLine: string | null }>();

  constructor(
    private readonly vault: VaultContext,
    private readonly mutate: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly indexEdits: MemoryIndexEdits,
  ) {}

  /** Creates a memory file and its MEMORY.md line when it fits (a user action, docs/memory.md#auto-memory). */
  createMemory(input: {
    projectSlug: string;
    team: boolean;
    fileName: string;
    name: string;
    description: string;
    type: string;
    body: string;
  }): Promise<WrittenMemory> {
    return this.mutate(async () => {
      const dir = memoryDir(input.projectSlug, input.team);
      if (input.fileName === INDEX_FILE || input.fileName.includes('/')) throw new AppFailure('invalid_request', `Not a memory file name: ${input.fileName}`);
      const rel = `${dir}/${input.fileName}`;
      const file = await writeVaultFile(this.vault, rel, renderMemoryFile({ ...input, modified: new Date(this.vault.options.clock.now()).toISOString() }, input.body, this.vault.options.memoryShape?.()), { baseHash: null, reason: 'create' });
      return withSkipped(file, await this.indexEdits.addLine(dir, input.fileName, { title: input.name, hook: input.description }));
    });
  }

  /**
   * The user checked a stale memory and it still holds: its modified time becomes now, so the health
   * panel stops flagging it and recall's "saved N days ago" tells the truth. The content is untouched.
   */
  markReviewed(rel: string): Promise<VaultFileMeta> {
    return this.mutate(async () => {
      this.vault.assertUsable();
      const abs = this.vault.resolve(rel);
      const location = classifyVaultPath(rel);
      if (!location || !isMemoryFile(rel, location.scope)) throw new AppFailure('invalid_request', `${rel} is not a memory`);
      const now = new Date(this.vault.options.clock.now());
      await fs.utimes(abs, now, now).catch(() => {
        throw new AppFailure('not_found', `${rel} does not exist`);
      });
      const doc = await this.vault.refresh(rel);
      return doc!.meta;
    });
  }

  /** Renames a file in its folder; for a memory, MEMORY.md lines pointing at the old name follow. */
  rename(rel: string, newFileName: string): Promise<VaultFileMeta> {
    return this.mutate(async () => {
      this.vault.assertUsable();
      const from = this.vault.resolve(rel);
      const location = classifyVaultPath(rel);
      const newRel = `${rel.slice(0, rel.lastIndexOf('/') + 1)}${newFileName}`;
      const to = this.vault.resolve(newRel);
      if (!location || location.scope === 'transcript' || classifyVaultPath(newRel)?.scope !== location.scope) {
        throw new AppFailure('invalid_request', `${rel} cannot be renamed to ${newFileName}`);
      }
      if (rel.endsWith(`/${INDEX_FILE}`) || newFileName === INDEX_FILE) throw new AppFailure('invalid_request', 'MEMORY.md keeps its name');
      if (await exists(to)) throw new AppFailure('conflict', `${newRel} already exists`);
      const bytes = await fs.readFile(from).catch(() => {
        throw new AppFailure('not_found', `${rel} does not exist`);
      });
      this.vault.expectOwnRemoval(rel);
      this.vault.own.expectWrite(newRel, sha256(bytes), 'added');
      await fs.rename(from, to);
      await this.vault.refresh(rel);
      const doc = await this.vault.refresh(newRel);
      if (isMemoryScope(location.scope)) {
        const dir = memoryDirOf(rel);
        await this.indexEdits.edit(dir, (t) => retargetIndex(t, rel.slice(dir.length + 1), newRel.slice(dir.length + 1)));
      }
      return doc!.meta;
    });
  }

  /** Soft delete: snapshot, remove (and drop the MEMORY.md line of a memory); Undo brings both back. */
  delete(rel: string): Promise<{ undoToken: string }> {
    return this.mutate(async () => {
      this.vault.assertUsable();
      const abs = this.vault.resolve(rel);
      const location = classifyVaultPath(rel);
      if (!location || location.scope === 'transcript') throw new AppFailure('invalid_request', `${rel} cannot be deleted here`);
      const bytes = await fs.readFile(abs).catch(() => {
        throw new AppFailure('not_found', `${rel} does not exist`);
      });
      const version = await this.vault.history.snapshot(rel, bytes, 'delete');
      this.vault.expectOwnRemoval(rel);
      await fs.rm(abs);
      await this.vault.history.markDeleted(rel, version.hash);
      await this.vault.refresh(rel);
      let indexLine: string | null = null;
      if (isMemoryFile(rel, location.scope)) {
        const dir = memoryDirOf(rel);
        const target = rel.slice(dir.length + 1);
        await this.indexEdits.edit(dir, (t) => {
          indexLine = t.split('\n').find((l) => parseIndex(l).some((p) => p.target === target)) ?? null;
          return removeFromIndex(t, target);
        });
      }
      const undoToken = randomBytes(18).toString('base64url');
      this.undo.set(undoToken, { path: rel, hash: version.hash, indexLine });
      return { undoToken };
    });
  }

  /** Undoes a soft delete: the file comes back (never over a file made since) with its index line, if it still fits. */
  undoDelete(undoToken: string): Promise<{ restored: string; indexSkipped?: IndexLineSkipped }> {
    return this.mutate(async () => {
      const entry = this.undo.get(undoToken);
      if (!entry) throw new AppFailure('not_found', 'Nothing to undo (the app was restarted, or it was undone already)');
      const text = await this.vault.history.readVersion(entry.path, entry.hash);
      await writeVaultFile(this.vault, entry.path, text, { baseHash: null, reason: 'undo-delete' });
      const dir = memoryDirOf(entry.path);
      const skipped = entry.indexLine ? await this.indexEdits.addLine(dir, entry.path.slice(dir.length + 1), entry.indexLine) : null;
      this.undo.delete(undoToken);
      return withSkipped({ restored: entry.path }, skipped);
    });
  }

  /** Versions of a file, newest first. */
  timeline(rel: string): Promise<HistoryVersion[]> {
    this.vault.resolve(rel);
    return this.vault.history.timeline(rel);
  }

  /** Who made the content now on disk, when Strata saw it made. */
  currentAuthor(rel: string): ReturnType<VaultContext['history']['currentAuthor']> {
    this.vault.resolve(rel);
    return this.vault.history.currentAuthor(rel);
  }

  /** A saved version and its diff against the current file (or against nothing, if deleted). */
  async readVersion(rel: string, hash: string): Promise<{ text: string; diff: string }> {
    const abs = this.vault.resolve(rel);
    const text = await this.vault.history.readVersion(rel, hash);
    const current = await fs.readFile(abs, 'utf8').catch(() => '');
    return { text, diff: this.vault.history.diff(rel, text, current, [`saved ${hash.slice(0, 12)}`, 'current']) };
  }

  /**
   * Puts a saved version back; the current content is snapshotted first, so a restore is undoable. A
   * deleted memory that comes back gets its MEMORY.md line again (from its frontmatter) when it has none.
   */
  restore(rel: string, hash: string): Promise<WrittenMemory> {
    return this.mutate(async () => {
      const text = await this.vault.history.readVersion(rel, hash);
      const wasDeleted = !this.vault.index.docs.has(rel);
      const file = await writeVaultFile(this.vault, rel, text, { reason: 'before-restore', author: { kind: 'restore' } });
      const location = classifyVaultPath(rel);
      if (wasDeleted && location && isMemoryFile(rel, location.scope)) {
        const dir = memoryDirOf(rel);
        const target = rel.slice(dir.length + 1);
        const fm = parseMarkdown(text, true).frontmatter;
        return withSkipped(file, await this.indexEdits.addLine(dir, target, { title: fm?.name.trim() || target, hook: fm?.description ?? '' }));
      }
      return file;
    });
  }

  listDeleted(): Promise<{ path: string; deletedAt: string; hash: string }[]> {
    return this.vault.history.listDeleted().then((list) => list.filter((d) => !this.vault.index.docs.has(d.path)));
  }
}

const withSkipped = <T extends object>(done: T, skipped: IndexLineSkipped | null): T & { indexSkipped?: IndexLineSkipped } => (skipped ? { ...done, indexSkipped: skipped } : done);

const exists = (file: string) => fs.lstat(file).then(() => true, () => false);
