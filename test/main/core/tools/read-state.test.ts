import { describe, expect, it } from 'vitest';
import { ReadState } from '../../../../main/core/tools/read-state.js';

describe('ReadState of a fork', () => {
  it('counts what the conversation read, then or later, and keeps its own reads to itself', async () => {
    const conversation = new ReadState();
    const fork = new ReadState(conversation);
    await conversation.record('/m/a.md', 'alpha');
    expect(await fork.check('/m/a.md', 'alpha')).toBeNull();
    expect(await fork.check('/m/a.md', 'alpha, edited')).toMatch(/modified since read/);
    await fork.record('/m/b.md', 'beta');
    expect(await conversation.check('/m/b.md', 'beta')).toMatch(/has not been read/);
    expect(fork.paths().sort()).toEqual(['/m/a.md', '/m/b.md']);
    expect(conversation.paths()).toEqual(['/m/a.md']);
    // The fork's own, newer read wins over the conversation's older one.
    await fork.record('/m/a.md', 'alpha, edited');
    expect(await fork.check('/m/a.md', 'alpha, edited')).toBeNull();
  });
});
