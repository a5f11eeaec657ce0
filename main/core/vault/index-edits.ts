import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import type { HealthReport, IndexLineSkipped, MemoryIndexView, MemoryLinks } from '../../../common/domain/vault.js';
import { sha256 } from './file-scan.js';
import { writeVaultFile } from './file-writer.js';
import { computeHealth, HealthCache } from './health.js';
import { addLinesThatFit, appendLinesThatFit, indexFullMessage } from './health-fix.js';
import { memoryLinks } from './memory-links.js';
import { buildIndexView, INDEX_FILE, parseIndex, removeFromIndex } from './memory-index.js';
import type { VaultContext } from './vault-context.js';
import { isMemoryScope, memoryDir } from './vault-paths.js';

/** MEMORY.md edits for the user's actions, the index views, and Health's report (its fixes: health-fix.ts). */
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
        const caps = this.vault.options.config().autoMemory;
        await this.edit(dir, (t) => {
          if (parseIndex(t).some((l) => l.target === target)) return null;
          const fit = addLinesThatFit(t, [{ target, title: doc.meta.title, hook: doc.meta.description ?? '' }], caps);
          if (fit.added === 0) throw new AppFailure('invalid_request', indexFullMessage(caps));
          return fit.text;
        });
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

  /**
   * Appends one memory's index line (as given, or from its name and description) unless the index lists
   * it already — and only if it fits under the caps the agent reads, like Health's fix: the memory is
   * kept either way, and what did not fit is returned for the user to hear about.
   */
  async addLine(dir: string, target: string, line: string | { title: string; hook: string }): Promise<IndexLineSkipped | null> {
    const caps = this.vault.options.config().autoMemory;
    let skipped: IndexLineSkipped | null = null;
    await this.edit(dir, (t) => {
      if (parseIndex(t).some((l) => l.target === target)) return null;
      const fit = typeof line === 'string' ? appendLinesThatFit(t, [line], caps) : addLinesThatFit(t, [{ target, ...line }], caps);
      if (fit.added > 0) return fit.text;
      skipped = { limit: fit.limit ?? 'lines', maxLines: caps.indexMaxLines, maxChars: caps.indexMaxChars, projectSlug: dir.split('/')[1]!, team: dir.endsWith('/team') };
      return null;
    });
    return skipped;
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
