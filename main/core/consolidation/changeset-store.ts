import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonAtomic } from '../fs/index.js';
import { KeyedSequencer } from '../../../common/async/sequencer.js';

const itemSchema = z.object({
  id: z.string(),
  absPath: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  reason: z.string(),
  status: z.enum(['pending', 'applied', 'rejected', 'undone']),
  /** How to take an applied change back: the history version it replaced, or the vault's delete Undo. */
  undo: z.union([z.object({ kind: z.literal('restore'), hash: z.string(), wrote: z.string().optional() }), z.object({ kind: z.literal('delete') }), z.object({ kind: z.literal('undelete'), token: z.string() })]).optional(),
});
const storedSchema = z.object({ id: z.string(), createdAt: z.string(), items: z.array(itemSchema) });

export type StoredItem = z.infer<typeof itemSchema>;
export type StoredChangeset = z.infer<typeof storedSchema>;

/**
 * The pending consolidation changeset of each memory folder, in the vault's `.strata/consolidation/`
 * (one JSON file per folder, private to the user), so it survives a restart until reviewed.
 */
export class ChangesetStore {
  readonly queue = new KeyedSequencer();

  constructor(private readonly vaultRoot: string) {}

  private fileFor(memoryDir: string): string {
    const key = createHash('sha256').update(path.resolve(memoryDir)).digest('hex').slice(0, 24);
    return path.join(this.vaultRoot, '.strata', 'consolidation', `${key}.json`);
  }

  async load(memoryDir: string): Promise<StoredChangeset | null> {
    const raw = await readJsonFile(this.fileFor(memoryDir)).catch(() => null);
    const parsed = storedSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
  }

  save(memoryDir: string, changeset: StoredChangeset): Promise<void> {
    return writeJsonAtomic(this.fileFor(memoryDir), changeset, { mode: 0o600, dirMode: 0o700 });
  }

  create(memoryDir: string, items: Omit<StoredItem, 'id' | 'status'>[], now: number): StoredChangeset {
    return { id: randomUUID(), createdAt: new Date(now).toISOString(), items: items.map((i) => ({ ...i, id: randomUUID(), status: 'pending' as const })) };
  }
}
