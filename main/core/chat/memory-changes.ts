import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ChatItem } from '../../../common/domain/chat.js';
import { AppFailure } from '../../../common/result.js';
import { parseMemoryFile } from '../../../common/memory-file/index.js';
import { INDEX_FILE_NAME } from '../auto-memory/index.js';
import { formatIndexLine } from '../auto-memory/index.js';
import { writeFileAtomic } from '../fs/index.js';

export type MemoryItem = Extract<ChatItem, { kind: 'memory' }>;

interface Change {
  absPath: string;
  before: string | null;
  after: string | null;
}

interface Pending extends Change {
  by: MemoryItem['by'];
  /** For a deletion: the index lines that pointed at the file, to put back on Undo. */
  indexLines: string[];
}

const readOrNull = (file: string) => fs.readFile(file, 'utf8').catch(() => null);

const pointsAt = (fileName: string) => (line: string) => line.includes(`](${fileName})`) || line.includes(`](<${fileName}>)`);

async function indexLinesFor(memoryDir: string, fileName: string): Promise<string[]> {
  const text = await readOrNull(path.join(memoryDir, INDEX_FILE_NAME));
  return text === null ? [] : text.split('\n').filter(pointsAt(fileName));
}

/** Removes the index lines that link to `fileName` (a memory file that no longer exists). */
async function dropIndexLines(memoryDir: string, fileName: string): Promise<void> {
  const index = path.join(memoryDir, INDEX_FILE_NAME);
  const text = await readOrNull(index);
  if (text === null) return;
  const next = text
    .split('\n')
    .filter((line) => !pointsAt(fileName)(line))
    .join('\n');
  if (next !== text) await writeFileAtomic(index, next);
}

/** Puts back the index lines of a restored file, unless the index already points at it. */
async function restoreIndexLines(memoryDir: string, fileName: string, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const index = path.join(memoryDir, INDEX_FILE_NAME);
  const text = (await readOrNull(index)) ?? '';
  if (text.split('\n').some(pointsAt(fileName))) return;
  await writeFileAtomic(index, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`);
}

/**
 * Every memory change the agent or the extractor makes, as a chat card with its diff and an Undo
 * (docs/memory.md#auto-memory: memory is the user's to shape). A change is captured just before it is written (the tools'
 * `beforeMemoryWrite` hook), confirmed once the file holds the new content, and undone only while it
 * still does — an edit made since is never overwritten.
 */
export class MemoryChanges {
  private readonly pending: Pending[] = [];
  private readonly undoable = new Map<string, Pending>();

  constructor(private readonly vaultRoot: string) {}

  /** Called from `beforeMemoryWrite` once the change is allowed. The index itself gets no card. */
  async capture(absPath: string, after: string | null, by: MemoryItem['by']): Promise<void> {
    if (path.basename(absPath) === INDEX_FILE_NAME) return;
    const indexLines = after === null ? await indexLinesFor(path.dirname(absPath), path.basename(absPath)) : [];
    this.pending.push({ absPath, before: await readOrNull(absPath), after, by, indexLines });
  }

  /** Cards for the captured changes that have reached the disk; the rest wait (their tool may still run). */
  async confirm(): Promise<MemoryItem[]> {
    const items: MemoryItem[] = [];
    for (const change of [...this.pending]) {
      const now = await readOrNull(change.absPath);
      if (now !== change.after) continue;
      this.pending.splice(this.pending.indexOf(change), 1);
      if (change.before === change.after) continue;
      const undoToken = randomUUID();
      this.undoable.set(undoToken, change);
      items.push(this.card(change, undoToken));
    }
    return items;
  }

  /** Drops captures whose write never happened (a failed or stopped tool). */
  forgetPending(): void {
    this.pending.length = 0;
  }

  /** Restores the file as it was before the change; refused when it was edited since. */
  async undo(undoToken: string): Promise<boolean> {
    const change = this.undoable.get(undoToken);
    if (!change) return false;
    const now = await readOrNull(change.absPath);
    if (now !== change.after) {
      throw new AppFailure('conflict', 'This memory changed after it was saved, so Undo would lose that edit. Open it in the vault instead.');
    }
    if (change.before === null) {
      await fs.rm(change.absPath, { force: true });
      await dropIndexLines(path.dirname(change.absPath), path.basename(change.absPath));
    } else {
      await writeFileAtomic(change.absPath, change.before);
      if (change.after === null) {
        // The index edit may have come first; then the line is made from the memory's own frontmatter.
        const file = path.basename(change.absPath);
        const shown = parseMemoryFile(change.before);
        const lines = change.indexLines.length > 0 ? change.indexLines : [formatIndexLine(shown.name ?? file.replace(/\.md$/, ''), file, shown.description ?? '')];
        await restoreIndexLines(path.dirname(change.absPath), file, lines);
      }
    }
    this.undoable.delete(undoToken);
    return true;
  }

  private card(change: Pending, undoToken: string): MemoryItem {
    const rel = path.relative(this.vaultRoot, change.absPath).split(path.sep).join('/');
    const shown = parseMemoryFile(change.after ?? change.before ?? '');
    return {
      kind: 'memory',
      id: `memory-${undoToken}`,
      action: change.after === null ? 'deleted' : change.before === null ? 'saved' : 'updated',
      path: rel,
      title: shown.name ?? path.basename(change.absPath, '.md'),
      type: shown.type === 'untyped' ? shown.rawType : shown.type,
      diff: createTwoFilesPatch(rel, rel, change.before ?? '', change.after ?? '', undefined, undefined, { context: 2 }),
      by: change.by,
      undoToken,
    };
  }
}
