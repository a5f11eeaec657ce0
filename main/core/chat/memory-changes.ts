import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { ChatItem } from '../../../common/domain/chat.js';
import { AppFailure } from '../../../common/result.js';
import { parseMemoryFile } from '../auto-memory/memory-frontmatter.js';
import { INDEX_FILE_NAME } from '../auto-memory/memory-paths.js';
import { writeFileAtomic } from '../fs/atomic-write.js';

export type MemoryItem = Extract<ChatItem, { kind: 'memory' }>;

interface Change {
  absPath: string;
  before: string | null;
  after: string | null;
}

interface Pending extends Change {
  by: MemoryItem['by'];
}

const readOrNull = (file: string) => fs.readFile(file, 'utf8').catch(() => null);

/** Removes the index lines that link to `fileName` (a memory file that no longer exists). */
async function dropIndexLines(memoryDir: string, fileName: string): Promise<void> {
  const index = path.join(memoryDir, INDEX_FILE_NAME);
  const text = await readOrNull(index);
  if (text === null) return;
  const kept = text.split('\n').filter((line) => !line.includes(`](${fileName})`));
  const next = kept.join('\n');
  if (next !== text) await writeFileAtomic(index, next);
}

/**
 * Every memory change the agent or the extractor makes, as a chat card with its diff and an Undo
 * (SPEC §4: memory is the user's to shape). A change is captured just before it is written (the tools'
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
    this.pending.push({ absPath, before: await readOrNull(absPath), after, by });
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
