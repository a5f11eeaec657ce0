import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { AppFailure } from '../../../common/result.js';
import type { MemoryConfig } from '../../../common/config.js';
import type { HealthFixKind, HealthFixResult, HealthProblem, HealthReport, HealthUndoResult } from '../../../common/domain/vault.js';
import { formatIndexLine, repairMemoryText, todayOf, withMemoryDate } from '../../../common/memory-file/index.js';
import { sha256 } from './file-scan.js';
import { writeVaultFile } from './file-writer.js';
import { INDEX_FILE, parseIndex, removeFromIndex } from './memory-index.js';
import type { VaultContext } from './vault-context.js';
import { memoryDirOf } from './vault-paths.js';

/** What one fix changed in one file, to take it back: its text before (null: the fix created it), or its modified time. */
type Change = { path: string; before: string | null; afterHash: string } | { path: string; mtime: Date };

type Caps = Pick<MemoryConfig['autoMemory'], 'indexMaxLines' | 'indexMaxChars'>;

/** How many fixes stay undoable at once. */
const UNDO_KEPT = 20;

const lineCount = (text: string) => (text === '' ? 0 : text.replace(/\n$/, '').split('\n').length);

/**
 * Appends the pointer lines that fit under the index's caps, in order, and stops at the first that does
 * not: the agent reads MEMORY.md only up to `indexMaxLines` lines and `indexMaxChars` characters
 * (docs/memory.md#memory-index), so a line past them would list a memory no conversation sees and
 * push nothing else into view.
 */
export function addLinesThatFit(
  text: string,
  lines: readonly { target: string; title: string; hook: string }[],
  caps: Caps,
): { text: string; added: number; limit: 'lines' | 'characters' | null } {
  return appendLinesThatFit(text, lines.map((l) => formatIndexLine(l.title, l.target, l.hook)), caps);
}

/** `addLinesThatFit` for lines already written out (an index line kept as it was). Built in one join (appending to a 900 KB string line by line is quadratic). */
export function appendLinesThatFit(text: string, lines: readonly string[], caps: Caps): { text: string; added: number; limit: 'lines' | 'characters' | null } {
  let count = lineCount(text);
  let chars = text === '' || text.endsWith('\n') ? text.length : text.length + 1;
  const out: string[] = [];
  let limit: 'lines' | 'characters' | null = null;
  for (const line of lines) {
    if (count + 1 > caps.indexMaxLines) limit = 'lines';
    else if (chars + line.length + 1 > caps.indexMaxChars) limit = 'characters';
    if (limit) break;
    out.push(line);
    count++;
    chars += line.length + 1;
  }
  if (out.length === 0) return { text, added: 0, limit };
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return { text: `${base}${out.join('\n')}\n`, added: out.length, limit };
}

/** Why a line was not added to a full index, in the user's words. */
export function indexFullMessage(caps: Caps): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `MEMORY.md is full: the agent reads only its first ${n(caps.indexMaxLines)} lines and ${n(caps.indexMaxChars)} characters, so a line added after them would never be seen. Tidy memory to make room.`;
}

/**
 * Health's one-click fixes (docs/memory.md#vault-upkeep), each undoable as one step: every file a fix
 * writes is recorded with what it was, and its Undo puts them all back — unless one changed since,
 * which is left as it is and named.
 */
export class HealthFixer {
  private readonly undo = new Map<string, Change[]>();

  constructor(
    private readonly vault: VaultContext,
    private readonly mutate: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly health: () => Promise<HealthReport>,
    private readonly markReviewed: (rel: string) => Promise<unknown>,
  ) {}

  /**
   * Fixes every problem of `kind` (or only those whose path is in `paths`): a MEMORY.md is rewritten
   * once per folder for all of its lines, a frontmatter or a date file by file (each through the atomic
   * write and its history snapshot). What cannot be fixed is reported, never fatal.
   */
  async fix(kind: HealthFixKind, paths: readonly string[] | undefined): Promise<HealthFixResult> {
    const wanted = paths ? new Set(paths) : null;
    const problems = (await this.health()).problems.filter((p) => p.kind === kind && (!wanted || wanted.has(p.path)));
    const result: HealthFixResult = { fixed: 0, failed: [] };
    if (wanted) {
      const found = new Set(problems.map((p) => p.path));
      for (const p of wanted) if (!found.has(p)) result.failed.push({ path: p, reason: 'Nothing to fix there any more' });
    }
    const changes: Change[] = [];
    if (kind === 'missing-from-index' || kind === 'broken-pointer') await this.fixIndexes(kind, problems, result, changes);
    else await this.fixFiles(kind, problems, result, changes);
    if (changes.length > 0) {
      result.undoToken = randomBytes(18).toString('base64url');
      this.undo.set(result.undoToken, changes);
      // Undo is for the fix just made: the oldest of many goes, so a long session holds no pile of old texts.
      if (this.undo.size > UNDO_KEPT) this.undo.delete(this.undo.keys().next().value!);
    }
    return result;
  }

  /** Takes a fix back whole: each file as it was before it, unless it changed since (then it is left and named). */
  undoFix(undoToken: string): Promise<HealthUndoResult> {
    return this.mutate(async () => {
      const changes = this.undo.get(undoToken);
      if (!changes) throw new AppFailure('not_found', 'Nothing to undo (the app was restarted, or it was undone already)');
      this.undo.delete(undoToken);
      const result: HealthUndoResult = { restored: 0, failed: [] };
      for (const change of changes) {
        try {
          if ('mtime' in change) {
            await fs.utimes(this.vault.resolve(change.path), change.mtime, change.mtime);
            await this.vault.refresh(change.path);
          } else if (change.before === null) {
            await this.removeCreated(change.path, change.afterHash);
          } else {
            await writeVaultFile(this.vault, change.path, change.before, { baseHash: change.afterHash, reason: 'health-undo' });
          }
          result.restored++;
        } catch (error) {
          const conflict = error instanceof AppFailure && error.code === 'conflict';
          result.failed.push({ path: change.path, reason: conflict ? 'Changed since the fix, so left as it is' : (error as Error).message });
        }
      }
      return result;
    });
  }

  private async fixIndexes(kind: 'missing-from-index' | 'broken-pointer', problems: HealthProblem[], result: HealthFixResult, changes: Change[]): Promise<void> {
    const byDir = new Map<string, HealthProblem[]>();
    for (const p of problems) {
      const dir = memoryDirOf(p.path);
      const list = byDir.get(dir);
      if (list) list.push(p);
      else byDir.set(dir, [p]);
    }
    const caps = this.vault.options.config().autoMemory;
    for (const [dir, list] of byDir) {
      const rel = `${dir}/${INDEX_FILE}`;
      const targets = list.map((p) => p.path.slice(dir.length + 1));
      let fixed = 0;
      try {
        await this.mutate(() =>
          this.rewrite(rel, changes, (text) => {
            if (kind === 'broken-pointer') {
              fixed = targets.length;
              return targets.reduce<string>((t, target) => removeFromIndex(t, target) ?? t, text);
            }
            const listed = new Set(parseIndex(text).map((l) => l.target));
            const lines = targets.flatMap((target) => {
              const meta = this.vault.index.docs.get(`${dir}/${target}`)?.meta;
              return listed.has(target) || !meta ? [] : [{ target, title: meta.title, hook: meta.description ?? '' }];
            });
            const fit = addLinesThatFit(text, lines, caps);
            fixed = fit.added;
            const left = lines.length - fit.added;
            if (left > 0) {
              const before = result.didNotFit?.count ?? 0;
              result.didNotFit = { count: before + left, limit: result.didNotFit?.limit ?? fit.limit!, maxLines: caps.indexMaxLines, maxChars: caps.indexMaxChars };
            }
            return fit.text;
          }),
        );
        result.fixed += fixed;
      } catch (error) {
        result.failed.push({ path: rel, reason: (error as Error).message });
      }
    }
  }

  private async fixFiles(kind: Exclude<HealthFixKind, 'missing-from-index' | 'broken-pointer'>, problems: HealthProblem[], result: HealthFixResult, changes: Change[]): Promise<void> {
    // Renewed from today for the stale period (docs/memory.md#freshness); the file's other lines stay as written.
    const config = this.vault.options.config();
    const renewTo = todayOf(this.vault.options.clock.now() + config.autoMemory.staleDays * 86_400_000);
    for (const p of problems) {
      try {
        if (kind === 'stale') {
          const { mtime } = await fs.stat(this.vault.resolve(p.path));
          await this.markReviewed(p.path);
          changes.push({ path: p.path, mtime });
        } else {
          await this.mutate(() =>
            this.rewrite(p.path, changes, (text) => {
              const next =
                kind === 'frontmatter'
                  ? repairMemoryText(text, p.path, this.vault.options.memoryShape?.(), new Date(this.vault.options.clock.now()).toISOString())
                  : withMemoryDate(text, kind === 'expired' ? 'validUntil' : 'reviewOn', renewTo);
              if (next === null) throw new Error(kind === 'frontmatter' ? 'It reads without error now' : 'Its frontmatter cannot be read');
              return next;
            }),
          );
        }
        result.fixed++;
      } catch (error) {
        result.failed.push({ path: p.path, reason: (error as Error).message });
      }
    }
  }

  /** Rewrites one file through `edit` (the same text: left alone) and records how to take it back. */
  private async rewrite(rel: string, changes: Change[], edit: (text: string) => string): Promise<void> {
    const current = await fs.readFile(this.vault.resolve(rel), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      if (rel.endsWith(`/${INDEX_FILE}`)) return null;
      throw new AppFailure('not_found', 'It no longer exists');
    });
    const next = edit(current ?? '');
    if (next === (current ?? '')) return;
    await writeVaultFile(this.vault, rel, next, { baseHash: current === null ? null : sha256(current), reason: 'health-fix' });
    changes.push({ path: rel, before: current, afterHash: sha256(next) });
  }

  /** Undo of a MEMORY.md the fix created: removed, unless it changed since. */
  private async removeCreated(rel: string, afterHash: string): Promise<void> {
    const abs = this.vault.resolve(rel);
    const now = await fs.readFile(abs, 'utf8').catch(() => null);
    if (now === null) return;
    if (sha256(now) !== afterHash) throw new AppFailure('conflict', `${rel} changed since the fix`);
    this.vault.expectOwnRemoval(rel);
    await fs.rm(abs);
    await this.vault.refresh(rel);
  }
}
