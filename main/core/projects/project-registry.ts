import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Emitter } from '../../../common/async/event.js';
import type { Project } from '../../../common/domain/app.js';
import { AppFailure } from '../../../common/result.js';
import { readJsonFile, writeJsonAtomic } from '../fs/index.js';
import type { Clock } from '../ports.js';
import { ProjectPaths } from '../paths/index.js';
import { MAX_SLUG_LENGTH } from '../paths/index.js';

const MAX_RECENT = 50;

const fileSchema = z.object({
  projects: z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string(), memorySlug: z.string().optional() })),
});

/** The folders the user has opened, most recent first, kept in `.strata/projects.json`. */
export class ProjectRegistry {
  private readonly file: string;
  private projects: Project[] = [];
  private readonly didChangeList = new Emitter<Project[]>();
  /** Fires with the new list after a folder is opened or forgotten (the only source of `project:did-change-list`). */
  readonly onDidChangeList = this.didChangeList.event;

  constructor(
    private readonly vaultRoot: string,
    private readonly clock: Clock,
  ) {
    this.file = path.join(vaultRoot, '.strata', 'projects.json');
  }

  async load(): Promise<Project[]> {
    const raw = await readJsonFile(this.file).catch(() => null);
    const parsed = fileSchema.safeParse(raw);
    // A list that does not parse is kept aside, not overwritten by the next open (as settings are).
    if (raw !== undefined && !parsed.success) await fs.rename(this.file, `${this.file}.invalid-${this.clock.now()}`).catch(() => undefined);
    const stored = parsed.success ? parsed.data.projects : [];
    // Lists written before memorySlug was kept get it now and keep it: a git lookup per project, once.
    // So do slugs the earlier naming got wrong (over 200 characters: another hash).
    const stale = (p: (typeof stored)[number]) => p.memorySlug === undefined || p.memorySlug.length > MAX_SLUG_LENGTH;
    this.projects = await Promise.all(stored.map(async (p) => ({ ...p, memorySlug: p.memorySlug !== undefined && !stale(p) ? p.memorySlug : await this.memorySlugOf(p.path) })));
    if (this.projects.some((p, i) => p.memorySlug !== stored[i]!.memorySlug)) await this.save().catch(() => undefined);
    return this.list();
  }

  list(): Project[] {
    return [...this.projects];
  }

  /** Records `folder` as opened now; the stored path is its real path. */
  async open(folder: string): Promise<Project> {
    let real: string;
    try {
      // Not normalized: tools must reach the folder by its own spelling (the slug takes the NFC form).
      real = await fs.realpath(folder);
    } catch {
      throw new AppFailure('not_found', `The folder ${folder} does not exist.`);
    }
    if (!(await fs.stat(real)).isDirectory()) throw new AppFailure('not_a_directory', `${real} is not a folder.`);
    const project: Project = {
      path: real,
      name: path.basename(real) || real,
      openedAt: new Date(this.clock.now()).toISOString(),
      memorySlug: await this.memorySlugOf(real),
    };
    this.projects = [project, ...this.projects.filter((p) => p.path !== real)].slice(0, MAX_RECENT);
    await this.save();
    this.didChangeList.fire(this.list());
    return project;
  }

  async forget(folder: string): Promise<Project[]> {
    this.projects = this.projects.filter((p) => p.path !== folder);
    await this.save();
    this.didChangeList.fire(this.list());
    return this.list();
  }

  private async memorySlugOf(folder: string): Promise<string> {
    return (await ProjectPaths.resolve(this.vaultRoot, folder)).memorySlug;
  }

  private async save(): Promise<void> {
    await writeJsonAtomic(this.file, { projects: this.projects }, { dirMode: 0o700 });
  }
}
