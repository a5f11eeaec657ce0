import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { emptyState, expireDeleted } from '../../../../main/core/team-sync/sync-state.js';

const DAY = 86_400_000;

describe('restorable deletions', () => {
  it('are kept for tombstoneDays (30) and forgotten after', () => {
    const now = Date.parse('2026-12-03T12:00:00.000Z');
    const state = emptyState();
    const ago = (days: number) => new Date(now - days * DAY).toISOString();
    state.deleted = {
      'fresh.md': { hash: 'a', deletedAt: ago(1), by: 'local' },
      'edge.md': { hash: 'b', deletedAt: ago(29.9), by: 'remote' },
      'old.md': { hash: 'c', deletedAt: ago(30.1), by: 'remote' },
    };
    expect(defaultMemoryConfig.teamSync.tombstoneDays).toBe(30);
    expireDeleted(state, now - defaultMemoryConfig.teamSync.tombstoneDays * DAY);
    expect(Object.keys(state.deleted).sort()).toEqual(['edge.md', 'fresh.md']);
  });
});
