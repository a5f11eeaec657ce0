import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import type { HealthFixKind, HealthFixResult, HealthProblem, HealthReport, MemoryIndexView, MemoryLinks } from '../../../common/domain/vault.js';
import { repairMemoryText } from '../../../common/memory-file/index.js';
import { sha256 } from './file-scan.js';
import { writeVaultFile } from './file-writer.js';
import { computeHealth, HealthCache } from './health.js';
import { memoryLinks } from './memory-links.js';
import { addToIndex, buildIndexView, INDEX_FILE, parseIndex, removeFromIndex } from './memory-index.js';
import type { VaultContext } from './vault-context.js';
import { isMemoryScope, memoryDir, memoryDirOf } from './vault-paths.js';

/** MEMORY.md edits for the user's actions and one-click fixes, the index views, and Health. */
export class MemoryIndexEdits {
  private readonly healthCache = new HealthCache();

  constructor(
    private readonly vault: VaultContext,
    private readonly mutate: <T>(fn: () => Promise<T>) => Promise<T>,
  ) {}

  /** The MEMORY.md view of one project's memory folder (auto or team). */
  async memoryIndex(projectSlug: string, team: boolean): Promise<MemoryIndexView> {
    const dir = memoryDir(projectSlug, team);
    const indexDoc = this.vault.index.docs.get(`${dir}/${INDEX_FILE}`);
    return buildIndexView(projectSlug, indexDoc ? indexDoc.text : null, this.memoryFilesIn(dir), this.vault.options.config().autoMemory);
  }

  /** A one-click fix from the MEMORY.md view: add a missing file's line, or drop a broken one. */
  fixIndex(projectSlug: string, team: boolean, fix: 'add-missing' | 'remove-broken', target: string): Promise<MemoryIndexView> {
    return this.mutate(async () => {
      const dir = memoryDir(projectSlug, team);
      if (fix === 'add-missing') {
        const doc = this.vault.index.docs.get(`${dir}/${target}`);
        if (!doc) throw new AppFailure('not_found', `${dir}/${target} does not exist`);
        await this.edit(dir, (t) => (parseIndex(t).some((l) => l.target === target) ? null : addToIndex(t, target, doc.meta.title, doc.meta.description ?? '')));
      } else {
        await this.edit(dir, (t) => removeFromIndex(t, target));
      }
      return this.memoryIndex(projectSlug, team);
    });
  }

  /** The health panel's data: the problems to fix and what to know (health.ts). */
  async health(): Promise<HealthReport> {
    const docs = [...this.vault.index.docs.values()];
    // One pass groups memory files by folder (not one scan of the catalog per folder).
    const dirs = new Map<string, { projectSlug: string; team: boolean; files: string[]; index: string | null }>();
    for (const d of docs) {
      if (!isMemoryScope(d.scope) || !d.projectSlug || !d.path.endsWith('.md')) continue;
      const team = d.scope === 'team-memory';
      const dir = memoryDir(d.projectSlug, team);
      let entry = dirs.get(dir);
      if (!entry) dirs.set(dir, (entry = { projectSlug: d.projectSlug, team, files: [], index: null }));
      const inner = d.path.slice(dir.length + 1);
      if (inner === INDEX_FILE) entry.index = d.hash === null ? null : d.text;
      else entry.files.push(inner);
    }
    const config = this.vault.options.config();
    const indexes = [...dirs.values()].map(({ projectSlug, team, files, index }) => ({
      projectSlug,
      team,
      view: buildIndexView(projectSlug, index, files, config.autoMemory),
    }));
    return computeHealth({
      files: docs.map((d) => ({ meta: d.meta, text: d.hash === null || d.meta.binary ? null : d.text, hash: d.hash })),
      indexes,
      now: this.vault.options.clock.now(),
      config,
      cache: this.healthCache,
    });
  }

  /**
   * Fixes every Health problem of `kind` (or only those whose path is in `paths`): a MEMORY.md is
   * rewritten once per folder for all of its lines, a frontmatter repaired file by file (each through
   * the atomic write and its history snapshot). What cannot be fixed is reported, never fatal.
   */
  async healthFix(
    kind: HealthFixKind,
    paths: readonly string[] | undefined,
    markReviewed: (rel: string) => Promise<unknown>,
  ): Promise<HealthFixResult> {
    const wanted = paths ? new Set(paths) : null;
    const problems = (await this.health()).problems.filter((p) => p.kind === kind && (!wanted || wanted.has(p.path)));
    const result: HealthFixResult = { fixed: 0, failed: [] };
    if (wanted) {
      const found = new Set(problems.map((p) => p.path));
      for (const p of wanted) if (!found.has(p)) result.failed.push({ path: p, reason: 'Nothing to fix there any more' });
    }
    if (kind === 'stale') {
      for (const p of problems) await this.attempt(result, p.path, () => markReviewed(p.path));
      return result;
    }
    if (kind === 'frontmatter') {
      for (const p of problems) {
        await this.attempt(result, p.path, () =>
          this.mutate(async () => {
            const text = await fs.readFile(this.vault.resolve(p.path), 'utf8');
            const repaired = repairMemoryText(text, p.path, this.vault.options.memoryShape?.(), new Date(this.vault.options.clock.now()).toISOString());
            if (repaired === null) throw new Error('It reads without error now');
            await writeVaultFile(this.vault, p.path, repaired, { baseHash: sha256(text), reason: 'health-fix' });
          }),
        );
      }
      return result;
    }
    const byDir = new Map<string, HealthProblem[]>();
    for (const p of problems) {
      const dir = memoryDirOf(p.path);
      byDir.set(dir, [...(byDir.get(dir) ?? []), p]);
    }
    for (const [dir, list] of byDir) {
      const targets = list.map((p) => p.path.slice(dir.length + 1));
      const done = await this.attempt(result, `${dir}/${INDEX_FILE}`, () =>
        this.mutate(() =>
          this.edit(dir, (text) => {
            if (kind === 'broken-pointer') return targets.reduce<string>((t, target) => removeFromIndex(t, target) ?? t, text);
            const listed = new Set(parseIndex(text).map((l) => l.target));
            return targets.reduce((t, target) => {
              const meta = this.vault.index.docs.get(`${dir}/${target}`)?.meta;
              return listed.has(target) || !meta ? t : addToIndex(t, target, meta.title, meta.description ?? '');
            }, text);
          }),
        ),
      );
      // One index write fixed the folder's problems: count each of them, not the write.
      if (done) result.fixed += list.length - 1;
    }
    return result;
  }

  private async attempt(result: HealthFixResult, path: string, fix: () => Promise<unknown>): Promise<boolean> {
    try {
      await fix();
      result.fixed++;
      return true;
    } catch (error) {
      result.failed.push({ path, reason: (error as Error).message });
      return false;
    }
  }

  /** A memory's [[name]] links and backlinks, among its project's memories (auto and team). */
  memoryLinks(rel: string): MemoryLinks {
    const doc = this.vault.index.docs.get(rel);
    if (!doc || !isMemoryScope(doc.scope) || !doc.projectSlug) throw new AppFailure('not_found', `${rel} is not a memory in the vault`);
    const memories = [...this.vault.index.docs.values()].filter(
      (d) => d.projectSlug === doc.projectSlug && isMemoryScope(d.scope) && d.hash !== null && d.path.endsWith('.md') && !d.path.endsWith('/MEMORY.md'),
    );
    return memoryLinks(rel, memories.map((d) => ({ meta: d.meta, text: d.text })));
  }

  memoryFilesIn(dir: string): string[] {
    const prefix = `${dir}/`;
    const team = `${dir}/team/`;
    return [...this.vault.index.docs.keys()]
      .filter((p) => p.startsWith(prefix) && !(dir.endsWith('/memory') && p.startsWith(team)) && p.endsWith('.md'))
      .map((p) => p.slice(prefix.length))
      .filter((p) => p !== INDEX_FILE);
  }

  /** Rewrites a MEMORY.md through `edit` (null = leave it); creates it when a line is added. */
  async edit(dir: string, edit: (text: string) => string | null): Promise<void> {
    const rel = `${dir}/${INDEX_FILE}`;
    const current = await fs.readFile(path.join(this.vault.root, ...rel.split('/')), 'utf8').catch(() => null);
    const next = edit(current ?? '');
    if (next === null || next === current) return;
    await writeVaultFile(this.vault, rel, next, { baseHash: current === null ? null : sha256(current), reason: 'index-edit' });
  }
}
