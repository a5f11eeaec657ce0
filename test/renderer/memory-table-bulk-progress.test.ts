import { describe, expect, it } from 'vitest';
import { deleteMemories } from '../../renderer/src/features/memory-table/memory-table-actions';
import { useStore } from '../../renderer/src/store';
import { createFakeApi, startFakeMain } from './support/fake-api';

describe('memory table bulk actions', () => {
  it('say how far a delete of many memories is while it runs, then offer one Undo', async () => {
    const seen: string[] = [];
    const fake = createFakeApi({
      'vault:delete': ({ path }) => {
        seen.push(useStore.getState().toast?.text ?? '');
        return { undoToken: `undo-${path}` };
      },
      'vault:list-files': () => [],
    });
    startFakeMain(fake.api);
    await deleteMemories(['projects/p/memory/a.md', 'projects/p/memory/b.md', 'projects/p/memory/c.md']);
    expect(seen).toEqual(['Deleting 1 of 3 memories…', 'Deleting 2 of 3 memories…', 'Deleting 3 of 3 memories…']);
    expect(useStore.getState().toast).toMatchObject({ text: 'Deleted 3 memories.', actionLabel: 'Undo' });
  });
});
