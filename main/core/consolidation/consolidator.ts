import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';
import type { ConsolidationChangeset, ConsolidationItem } from '../../../common/domain/consolidation.js';
import type { IndexLineSkipped } from '../../../common/domain/vault.js';
import { parseMemoryFile } from '../../../common/memory-file/index.js';
import { AppFailure } from '../../../common/result.js';
import { createExtractorCanUseTool, type CanUseTool } from '../auto-memory/index.js';
import { formatManifest, scanMemoryFiles } from '../auto-memory/index.js';
import { INDEX_FILE_NAME } from '../auto-memory/index.js';
import { memoryWriteGuard, type SecretScan } from '../auto-memory/index.js';
import type { Clock } from '../ports.js';
import { redactValues, secretValues } from '../secrets/index.js';
import { ReadState, realScope, type ToolContext } from '../tools/index.js';
import type { Vault } from '../vault/index.js';
import { ChangesetStore, type StoredChangeset, type StoredItem } from './changeset-store.js';
import { consolidationGates } from './consolidation-gates.js';
import { ConsolidationLock } from './consolidation-lock.js';
import { consolidationPrompt, parseReasons } from './consolidation-prompt.js';
import { mergeIndex } from './index-merge.js';

/** The forked agent a pass runs: the prompt in, its last text out (writes go through `toolContext`). */
export type ConsolidationFork = (input: {
  prompt: string;
  toolContext: Omit<ToolContext, 'signal'>;
  canUseTool: CanUseTool;
  maxTurns: number;
}) => Promise<{ text: string }>;

export type ConsolidationOutcome =
  | { kind: 'proposed'; changeset: ConsolidationChangeset }
  | { kind: 'nothing' }
  | { kind: 'skipped'; reason: 'disabled' | 'too-soon' | 'too-few-sessions' | 'locked' | 'pending-review' }
  | { kind: 'failed'; message: string };

export interface ConsolidatorOptions {
  vault: Vault;
  /** The memory folder (its real path, inside the vault). */
  memoryDir: string;
  projectDir: string;
  /** Where this project's conversations are, for the "sessions touched since" gate. */
  transcriptsDirs: string[];
  config: () => MemoryConfig;
  /** The project's switches, read at each run. */
  switches: () => { consolidation: boolean; autoApply: boolean };
  clock: Clock;
  fork: ConsolidationFork;
  store: ChangesetStore;
  scan: SecretScan;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
/** MEMORY.md (the folder's or its team's) is read into every conversation: a pass may rewrite it, never delete it. */
const isIndexFile = (file: string) => path.basename(file).toLowerCase() === INDEX_FILE_NAME.toLowerCase();
const readOrNull = (file: string) => fs.readFile(file, 'utf8').catch(() => null);

/**
 * Consolidation you approve (docs/memory-upkeep.md): Claude Code's autoDream pass — merge duplicates,
 * fix relative dates, delete contradicted facts, prune MEMORY.md — run as a forked agent with the
 * extractor's sandbox, but every write it makes is held and becomes one changeset. The user accepts or
 * rejects each change (or all); an accepted change goes through the vault with history, and can be undone.
 */
export class Consolidator {
  constructor(private readonly o: ConsolidatorOptions) {}

  private get lock(): ConsolidationLock {
    return new ConsolidationLock(this.o.memoryDir, this.o.clock, this.o.config().consolidation.lockStaleMinutes * 60_000);
  }

  /** The background entry: runs only when the gates say so (≥ minHours since the last, ≥ minSessions since). */
  async maybeRun(): Promise<ConsolidationOutcome> {
    if (!this.o.switches().consolidation) return { kind: 'skipped', reason: 'disabled' };
    const verdict = await consolidationGates({
      lastRunAt: await this.lock.lastRunAt(),
      now: this.o.clock.now(),
      transcriptsDirs: this.o.transcriptsDirs,
      config: this.o.config().consolidation,
    });
    if (!verdict.due) return { kind: 'skipped', reason: verdict.reason };
    return this.runNow();
  }

  /** "Tidy memory now": no time or session gate, but still one pass at a time and one changeset waiting. */
  async runNow(): Promise<ConsolidationOutcome> {
    if ((await this.pending())?.items.some((i) => i.status === 'pending')) return { kind: 'skipped', reason: 'pending-review' };
    const acquired = await this.lock.acquire();
    if (!acquired.ok) return { kind: 'skipped', reason: 'locked' };
    let success = false;
    try {
      const outcome = await this.pass();
      success = true;
      return outcome;
    } catch (error) {
      return { kind: 'failed', message: (error as Error).message };
    } finally {
      await acquired.lock.release(success);
    }
  }

  private async pass(): Promise<ConsolidationOutcome> {
    const { memoryDir, projectDir } = this.o;
    const config = this.o.config();
    const captured = new Map<string, string | null>();
    const guard = memoryWriteGuard({ memoryDirs: [memoryDir], scan: this.o.scan });
    const toolContext: Omit<ToolContext, 'signal'> = {
      scope: await realScope({ project: projectDir, memory: [memoryDir], readOnly: [] }),
      readState: new ReadState(),
      limits: config.agent,
      // `content` is the whole file the write would leave (an Edit's result, not its replacement): a value
      // whose key name is already in the file is a secret only there. Refused here, it is never held, so
      // no changeset, history version or blob of it exists.
      beforeMemoryWrite: async (file, content) => {
        if (content === null && isIndexFile(file)) return `Refused: ${INDEX_FILE_NAME} is the index of this memory folder and cannot be deleted; Write it with the lines it should keep.`;
        const check = await guard.check({ path: file, ...(content === null ? {} : { content }) });
        if (!check.ok) return `Refused: ${check.reason}.`;
        captured.set(file, content);
        return { held: 'Held for the user to review with the rest of this pass; go on with the other changes.' };
      },
    };
    const files = await scanMemoryFiles(memoryDir, { maxBytes: 2048, limit: 200 });
    const prompt = consolidationPrompt({
      memoryDir,
      manifest: formatManifest(files),
      today: new Date(this.o.clock.now()).toISOString().slice(0, 10),
      maxTurns: config.consolidation.maxTurns,
      indexMaxLines: config.autoMemory.indexMaxLines,
    });
    const result = await this.o.fork({ prompt, toolContext, canUseTool: createExtractorCanUseTool({ projectDir, guard }), maxTurns: config.consolidation.maxTurns });
    const reasons = parseReasons(result.text);
    const items: Omit<StoredItem, 'id' | 'status'>[] = [];
    for (const [absPath, after] of captured) {
      const before = await readOrNull(absPath);
      if (before === after) continue;
      const name = path.basename(absPath);
      const fallback = after === null ? 'deleted by the tidy-up' : before === null ? 'new file from merged memories' : name === INDEX_FILE_NAME ? 'index brought in line with the files' : 'rewritten by the tidy-up';
      items.push({ absPath, before, after, reason: reasons.get(name) ?? fallback });
    }
    // The index last: it is merged over whatever the other changes did to it.
    items.sort((a, b) => Number(path.basename(a.absPath) === INDEX_FILE_NAME) - Number(path.basename(b.absPath) === INDEX_FILE_NAME));
    if (items.length === 0) return { kind: 'nothing' };
    const changeset = this.o.store.create(memoryDir, items, this.o.clock.now());
    await this.o.store.queue.run(memoryDir, () => this.o.store.save(memoryDir, changeset));
    if (this.o.switches().autoApply) {
      const applied = await this.resolve(changeset.id, { accept: changeset.items.map((i) => i.id), reject: [] });
      return { kind: 'proposed', changeset: applied };
    }
    return { kind: 'proposed', changeset: this.view(changeset) };
  }

  async pending(): Promise<ConsolidationChangeset | null> {
    const stored = await this.o.store.load(this.o.memoryDir);
    return stored ? this.view(stored) : null;
  }

  /**
   * Applies the accepted items and drops the rejected ones (the rest stay pending). A file changed since
   * the pass is left pending and named in the error, so nobody's edit is overwritten; MEMORY.md is merged
   * three-way over the changes the other items made to it.
   */
  resolve(changesetId: string, decision: { accept: readonly string[]; reject: readonly string[] }): Promise<ConsolidationChangeset> {
    return this.o.store.queue.run(this.o.memoryDir, async () => {
      const changeset = await this.loadChangeset(changesetId);
      const conflicts: string[] = [];
      const secrets: string[] = [];
      const indexDeletes: string[] = [];
      for (const item of changeset.items) {
        if (item.status !== 'pending') continue;
        if (decision.reject.includes(item.id)) item.status = 'rejected';
        else if (decision.accept.includes(item.id) && item.after === null && isIndexFile(item.absPath)) {
          // Refused when proposed; a changeset stored by an older version may still hold one.
          item.status = 'rejected';
          item.reason = `refused: ${INDEX_FILE_NAME} cannot be deleted`;
          indexDeletes.push(this.rel(item.absPath));
        } else if (decision.accept.includes(item.id)) {
          // Scanned again at apply, with today's rules and "Not a secret" list (a changeset stored by an
          // older version, or a rule added since): a refused change is dropped with its text.
          const findings = item.after === null ? [] : this.o.scan(item.after);
          if (item.after !== null && findings.length > 0) {
            item.status = 'rejected';
            // Blanked where the scan says; a scan that gives no spans leaves the change empty instead.
            const values = secretValues(item.after, findings);
            item.after = values.length ? redactValues(item.after, values) : item.before;
            item.reason = 'refused: it would write a secret into memory';
            secrets.push(this.rel(item.absPath));
          } else if (await this.apply(item, this.keptDeletions(changeset))) item.status = 'applied';
          else conflicts.push(this.rel(item.absPath));
        }
      }
      await this.o.store.save(this.o.memoryDir, changeset);
      const problems = [
        ...(indexDeletes.length ? [`Not applied, since ${INDEX_FILE_NAME} cannot be deleted: ${indexDeletes.join(', ')}.`] : []),
        ...(secrets.length ? [`Not applied, since it would write a secret into memory: ${secrets.join(', ')}.`] : []),
        ...(conflicts.length ? [`Changed since the tidy-up was proposed, so left as they are: ${conflicts.join(', ')}. Reject those items, or edit the files in the vault.`] : []),
      ];
      if (problems.length) {
        const applied = changeset.items.filter((i) => i.status === 'applied' && decision.accept.includes(i.id)).length;
        throw new AppFailure('conflict', `${applied ? `${applied} change${applied === 1 ? '' : 's'} applied. ` : ''}${problems.join(' ')}`);
      }
      return this.view(changeset);
    });
  }

  /**
   * Takes one applied change back through the vault (the undone version is in history too). A memory
   * that comes back gets its MEMORY.md line only under the caps the agent reads (the vault's restore and
   * delete Undo, docs/memory.md#memory-index); a line left out is returned as `indexSkipped`, to be told.
   */
  undo(changesetId: string, itemId: string): Promise<ConsolidationChangeset & { indexSkipped?: IndexLineSkipped }> {
    return this.o.store.queue.run(this.o.memoryDir, async () => {
      const changeset = await this.loadChangeset(changesetId);
      const item = changeset.items.find((i) => i.id === itemId);
      if (!item || item.status !== 'applied' || !item.undo) throw new AppFailure('not_found', 'That change is not applied, so there is nothing to undo.');
      const rel = this.rel(item.absPath);
      let indexSkipped: IndexLineSkipped | undefined;
      if (item.undo.kind === 'restore' && item.undo.wrote !== undefined) await this.undoIndex(item.absPath, rel, item.undo.hash, item.undo.wrote);
      else if (item.undo.kind === 'restore') indexSkipped = (await this.o.vault.restore(rel, item.undo.hash)).indexSkipped;
      else if (item.undo.kind === 'delete') await this.o.vault.delete(rel);
      else {
        // The vault's delete Undo lives until the app quits; after a restart the deleted version comes
        // back from history instead (its index line from its frontmatter).
        const before = item.before;
        indexSkipped = await this.o.vault.undoDelete(item.undo.token).then(
          (r) => r.indexSkipped,
          async (error: unknown) => {
            if (!(error instanceof AppFailure) || error.code !== 'not_found' || before === null) throw error;
            return (await this.o.vault.restore(rel, sha256(before))).indexSkipped;
          },
        );
      }
      item.status = 'undone';
      delete item.undo;
      await this.o.store.save(this.o.memoryDir, changeset);
      return indexSkipped ? { ...this.view(changeset), indexSkipped } : this.view(changeset);
    });
  }

  /**
   * Undo of the pass's MEMORY.md: the index as it was before, merged over the index as it is now, so a
   * line added since (a new memory, another change's Undo) stays; the pass's own edits are what go.
   * Unchanged since the pass, it is simply the version before.
   */
  private async undoIndex(absPath: string, rel: string, beforeHash: string, wrote: string): Promise<void> {
    const current = await readOrNull(absPath);
    if (current === null || current === wrote) {
      await this.o.vault.restore(rel, beforeHash);
      return;
    }
    const before = (await this.o.vault.readVersion(rel, beforeHash)).text;
    await this.o.vault.write(rel, mergeIndex(wrote, current, before), { baseHash: sha256(current), reason: 'consolidation' });
  }

  /** Files the pass would delete that are still there (rejected or not yet decided), relative to the folder. */
  private keptDeletions(changeset: StoredChangeset): Set<string> {
    return new Set(
      changeset.items.filter((i) => i.after === null && i.status !== 'applied').map((i) => path.relative(this.o.memoryDir, i.absPath).split(path.sep).join('/')),
    );
  }

  private async apply(item: StoredItem, keep: ReadonlySet<string>): Promise<boolean> {
    const rel = this.rel(item.absPath);
    const current = await readOrNull(item.absPath);
    let after = item.after;
    const isIndex = path.basename(item.absPath) === INDEX_FILE_NAME;
    if (isIndex && current !== null && item.before !== null && after !== null) {
      after = mergeIndex(item.before, current, after, keep);
    } else if (current !== item.before) {
      return false;
    }
    if (after === null) {
      const { undoToken } = await this.o.vault.delete(rel);
      item.undo = { kind: 'undelete', token: undoToken };
    } else if (current === null) {
      await this.o.vault.write(rel, after, { baseHash: null, reason: 'consolidation' });
      item.undo = { kind: 'delete' };
    } else {
      await this.o.vault.write(rel, after, { baseHash: sha256(current), reason: 'consolidation' });
      // The write saved `current` in history first: Undo restores exactly that version (an index, merged
      // with what was added since: `undoIndex`).
      item.undo = { kind: 'restore', hash: sha256(current), ...(isIndex ? { wrote: after } : {}) };
    }
    return true;
  }

  private async loadChangeset(id: string): Promise<StoredChangeset> {
    const changeset = await this.o.store.load(this.o.memoryDir);
    if (!changeset || changeset.id !== id) throw new AppFailure('not_found', 'That tidy-up is no longer in the inbox.');
    return changeset;
  }

  private rel(absPath: string): string {
    return path.relative(this.o.vault.root, absPath).split(path.sep).join('/');
  }

  private view(c: StoredChangeset): ConsolidationChangeset {
    return {
      id: c.id,
      createdAt: c.createdAt,
      items: c.items.map((i): ConsolidationItem => {
        const rel = this.rel(i.absPath);
        return {
          id: i.id,
          path: rel,
          action: i.after === null ? 'deleted' : i.before === null ? 'created' : 'updated',
          title: isIndexFile(i.absPath) ? 'The memory index' : (parseMemoryFile(i.after ?? i.before ?? '').name ?? path.basename(i.absPath, '.md')),
          reason: i.reason,
          before: i.before,
          after: i.after,
          status: i.status,
        };
      }),
    };
  }
}
