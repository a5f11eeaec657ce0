import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/index.js';
import type { MemoryConfig } from '../../../common/config.js';
import { renderMemoryFile } from '../../../common/memory-file/index.js';
import { scanMemoryFiles, type MemoryFile } from './memory-files.js';
import {
  formatIndexLine,
  indexHeadroom,
  normalizeTarget,
  parseIndex,
  truncateIndex,
  type IndexEntry,
  type IndexHeadroom,
  type IndexTruncation,
} from './memory-index.js';
import { ensureMemoryDir, INDEX_FILE_NAME } from './memory-paths.js';
import { checkMemoryWrite } from './write-sandbox.js';

/** MEMORY.md as parsed, with its pointer problems flagged (docs/memory.md#auto-memory: flagged, never fixed behind the model's back). */
export interface IndexReport {
  raw: string;
  entries: IndexEntry[];
  /** Topic files (relative paths) that no index line points at. */
  missing: string[];
  headroom: IndexHeadroom;
}

/** The user's "new memory" action in the vault. */
export interface NewMemory {
  /** File name relative to the memory folder, e.g. `feedback_tabs.md`. */
  file: string;
  name: string;
  description: string;
  type: string;
  body: string;
  /** The index line's hook; defaults to the description. */
  hook?: string;
}

/**
 * One project's memory folder (docs/memory.md#auto-memory). The model owns MEMORY.md's lines; the methods that edit MEMORY.md
 * here are the user's own vault actions (create, rename, delete), which keep the index in step.
 */
export class MemoryStore {
  constructor(
    readonly memoryDir: string,
    private readonly config: MemoryConfig['autoMemory'],
  ) {}

  get indexPath(): string {
    return path.join(this.memoryDir, INDEX_FILE_NAME);
  }

  /** Creates the folder when missing; returns its real path. */
  ensure(): Promise<string> {
    return ensureMemoryDir(this.memoryDir);
  }

  list(): Promise<MemoryFile[]> {
    return scanMemoryFiles(this.memoryDir);
  }

  async readIndexRaw(): Promise<string> {
    return fs.readFile(this.indexPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
  }

  async readIndex(): Promise<IndexReport> {
    const [raw, files] = await Promise.all([this.readIndexRaw(), this.list()]);
    const present = new Set(files.map((f) => f.relPath));
    const entries = parseIndex(raw, (t) => present.has(t));
    const pointed = new Set(entries.map((e) => e.target));
    const missing = files.map((f) => f.relPath).filter((p) => !pointed.has(p) && !p.startsWith('team/'));
    return { raw, entries, missing, headroom: indexHeadroom(raw, this.caps) };
  }

  /** MEMORY.md as it goes into the conversation: truncated at the caps with the warning (docs/memory.md#auto-memory, docs/memory.md#injection-order). */
  async loadIndexForPrompt(): Promise<IndexTruncation> {
    return truncateIndex(await this.readIndexRaw(), this.caps);
  }

  async headroom(): Promise<IndexHeadroom> {
    return indexHeadroom(await this.readIndexRaw(), this.caps);
  }

  /** User action: write a new memory file and append its index line. */
  async create(memory: NewMemory): Promise<string> {
    const target = await this.resolve(memory.file);
    await this.ensure();
    await writeFileAtomic(target, renderMemoryFile(memory, memory.body), { mode: 0o600, dirMode: 0o700 });
    await this.editIndex((lines) => [...lines, formatIndexLine(memory.name, memory.file, memory.hook ?? memory.description)]);
    return target;
  }

  /** A memory file's text, or null when it does not exist. */
  async read(file: string): Promise<string | null> {
    return fs.readFile(await this.resolve(file, 'existing'), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
  }

  /** User action: rewrite an existing memory file's text; its index line is left as it is. */
  async update(file: string, text: string): Promise<string> {
    const target = await this.resolve(file);
    await writeFileAtomic(target, text, { mode: 0o600, dirMode: 0o700 });
    return target;
  }

  /** User action: rename a memory file and repoint its index line(s). */
  async rename(from: string, to: string): Promise<string> {
    const source = await this.resolve(from, 'existing');
    const target = await this.resolve(to);
    if (await fs.lstat(target).catch(() => null)) throw new Error(`${to} already exists`);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await fs.rename(source, target);
    await this.editIndex((lines) =>
      lines.map((line) => {
        const [entry] = parseIndex(line, () => true);
        if (!entry || entry.target !== normalizeTarget(from)) return line;
        return formatIndexLine(entry.title, to, entry.hook);
      }),
    );
    return target;
  }

  /** User action: delete a memory file and the index line(s) pointing at it. */
  async delete(file: string): Promise<void> {
    const target = await this.resolve(file, 'existing');
    await fs.rm(target, { force: true });
    await this.editIndex((lines) => lines.filter((line) => parseIndex(line, () => true)[0]?.target !== normalizeTarget(file)));
  }

  private get caps() {
    return { maxLines: this.config.indexMaxLines, maxChars: this.config.indexMaxChars };
  }

  /** User actions go through the same sandbox as the agent's: a vault action never reaches outside the folder. */
  private async resolve(file: string, intent: 'write' | 'existing' = 'write'): Promise<string> {
    if (normalizeTarget(file) === INDEX_FILE_NAME) throw new Error('MEMORY.md is the index, not a memory');
    const check = await checkMemoryWrite(this.memoryDir, file, intent);
    if (!check.ok) throw new Error(check.reason);
    return check.realPath;
  }

  private async editIndex(edit: (lines: string[]) => string[]): Promise<void> {
    const raw = await this.readIndexRaw();
    const lines = raw === '' ? [] : raw.replace(/\n$/, '').split('\n');
    const next = edit(lines);
    await writeFileAtomic(this.indexPath, next.length ? `${next.join('\n')}\n` : '', { mode: 0o600, dirMode: 0o700 });
  }
}
