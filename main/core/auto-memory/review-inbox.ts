import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import type { MemoryProposal } from '../../../common/domain/chat.js';
import { AppFailure } from '../../../common/result.js';
import { readJsonFile, writeFileAtomic, writeJsonAtomic } from '../fs/index.js';
import { KeyedSequencer } from '../../../common/async/sequencer.js';
import { INDEX_FILE_NAME } from './memory-paths.js';
import { parseMemoryFile } from '../../../common/memory-file/index.js';
import { formatIndexLine } from './memory-index.js';

const storedSchema = z.array(
  z.object({
    id: z.string(),
    absPath: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
    sessionId: z.string(),
    createdAt: z.string(),
  }),
);
type Stored = z.infer<typeof storedSchema>[number];

const readOrNull = (file: string) => fs.readFile(file, 'utf8').catch(() => null);

/**
 * Review mode (docs/memory.md#auto-memory): the extractor's changes to a memory folder wait here instead of landing,
 * until the user accepts (as proposed or edited) or rejects them. One JSON file per memory folder in the
 * vault's `.strata/review/`, so proposals survive a restart. Accepting is the user's own action, so a
 * new memory also gets its MEMORY.md line then.
 */
export class ReviewInbox {
  private readonly queue = new KeyedSequencer();

  constructor(
    private readonly vaultRoot: string,
    private readonly clock: { now(): number },
  ) {}

  private fileFor(memoryDir: string): string {
    const key = createHash('sha256').update(path.resolve(memoryDir)).digest('hex').slice(0, 24);
    return path.join(this.vaultRoot, '.strata', 'review', `${key}.json`);
  }

  private async load(memoryDir: string): Promise<Stored[]> {
    const raw = await readJsonFile(this.fileFor(memoryDir)).catch(() => []);
    const parsed = storedSchema.safeParse(raw ?? []);
    return parsed.success ? parsed.data : [];
  }

  private save(memoryDir: string, entries: Stored[]): Promise<void> {
    return writeJsonAtomic(this.fileFor(memoryDir), entries, { mode: 0o600, dirMode: 0o700 });
  }

  async list(memoryDir: string): Promise<MemoryProposal[]> {
    return (await this.load(memoryDir)).map((e) => this.view(e));
  }

  /** Holds a change the extractor wanted to make; the file is left as it is. */
  propose(memoryDir: string, change: { absPath: string; after: string | null; sessionId: string }): Promise<MemoryProposal> {
    return this.queue.run(memoryDir, async () => {
      const entries = await this.load(memoryDir);
      const entry: Stored = {
        id: randomUUID(),
        absPath: change.absPath,
        before: await readOrNull(change.absPath),
        after: change.after,
        sessionId: change.sessionId,
        createdAt: new Date(this.clock.now()).toISOString(),
      };
      // A newer proposal for the same file replaces the older one.
      await this.save(memoryDir, [...entries.filter((e) => e.absPath !== change.absPath), entry]);
      return this.view(entry);
    });
  }

  /**
   * Applies (`accept`, optionally with the user's edited text) or drops (`reject`) a proposal. Refused
   * when the file changed since it was proposed, so nobody's edit is overwritten.
   */
  resolve(memoryDir: string, id: string, decision: 'accept' | 'reject', text?: string): Promise<{ path: string | null }> {
    return this.queue.run(memoryDir, async () => {
      const entries = await this.load(memoryDir);
      const entry = entries.find((e) => e.id === id);
      if (!entry) throw new AppFailure('not_found', 'That proposal is no longer in the inbox.');
      const rest = entries.filter((e) => e.id !== id);
      if (decision === 'reject') {
        await this.save(memoryDir, rest);
        return { path: null };
      }
      if ((await readOrNull(entry.absPath)) !== entry.before) {
        throw new AppFailure('conflict', 'The memory changed since this was proposed. Reject it, or edit the file in the vault instead.');
      }
      const after = text ?? entry.after;
      if (after === null) {
        await fs.rm(entry.absPath, { force: true });
      } else {
        await writeFileAtomic(entry.absPath, after, { mode: 0o600, dirMode: 0o700 });
        if (entry.before === null) await addIndexLine(memoryDir, entry.absPath, after);
      }
      await this.save(memoryDir, rest);
      return { path: this.relative(entry.absPath) };
    });
  }

  private relative(abs: string): string {
    return path.relative(this.vaultRoot, abs).split(path.sep).join('/');
  }

  private view(e: Stored): MemoryProposal {
    const rel = this.relative(e.absPath);
    const shown = parseMemoryFile(e.after ?? e.before ?? '');
    return {
      id: e.id,
      path: rel,
      action: e.after === null ? 'deleted' : e.before === null ? 'saved' : 'updated',
      title: shown.name ?? path.basename(e.absPath, '.md'),
      type: shown.type === 'untyped' ? shown.rawType : shown.type,
      diff: createTwoFilesPatch(rel, rel, e.before ?? '', e.after ?? '', undefined, undefined, { context: 2 }),
      before: e.before,
      text: e.after,
      sessionId: e.sessionId,
      createdAt: e.createdAt,
    };
  }
}

async function addIndexLine(memoryDir: string, absPath: string, text: string): Promise<void> {
  if (path.dirname(absPath) !== path.resolve(memoryDir) || path.basename(absPath) === INDEX_FILE_NAME) return;
  const index = path.join(memoryDir, INDEX_FILE_NAME);
  const current = (await readOrNull(index)) ?? '';
  const file = path.basename(absPath);
  if (current.includes(`](${file})`)) return;
  const parsed = parseMemoryFile(text);
  const line = formatIndexLine(parsed.name ?? file.replace(/\.md$/, ''), file, parsed.description ?? '');
  await writeFileAtomic(index, `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`);
}
