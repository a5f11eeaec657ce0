import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshRepo, makeDevice, type Device } from './sync-harness.js';
import { startSqliteSyncServer, type SyncServer } from './sync-server.js';

/**
 * Restoring a team memory a teammate deleted, against the real server (SQLite): the memory comes back
 * with its line in the team MEMORY.md only under the caps the agent reads that index to
 * (docs/memory.md#memory-index), as the vault's own restore does; a line left out is said, not written.
 */
let server: SyncServer;

beforeAll(async () => {
  server = await startSqliteSyncServer('strata-sync-restore-cap-');
});

afterAll(() => server.close());

const memory = (name: string) => `---\nname: ${name}\ndescription: what ${name} says\ntype: project\n---\n\n${name}'s body.\n`;
const lines = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `- [Note ${from + i}](note-${from + i}.md) — what it says`);

/** A shares oncall.md and a team index of `listed` lines besides it; then deletes it and drops its line, and B pulls that. */
async function deletedByTeammate(listed: number): Promise<{ a: Device; b: Device; index: string }> {
  const repo = freshRepo();
  const a = await makeDevice('a', server.url, await server.member([repo]), repo);
  const b = await makeDevice('b', server.url, await server.member([repo]), repo);
  await a.write('oncall.md', memory('On-call'));
  await a.write('MEMORY.md', `${['- [On-call](oncall.md) — who is on call', ...lines(0, listed - 1)].join('\n')}\n`);
  await a.engine.sync();
  await b.engine.sync();
  expect(await b.read('oncall.md')).toBe(memory('On-call'));

  // The teammate deletes it, and another memory takes its line.
  await a.remove('oncall.md');
  const index = `${[...lines(0, listed - 1), `- [Note ${listed - 1}](note-${listed - 1}.md) — what it says`].join('\n')}\n`;
  await a.write('MEMORY.md', index);
  await a.engine.sync();
  await b.engine.sync();
  expect(await b.read('oncall.md')).toBeNull();
  expect(await b.read('MEMORY.md')).toBe(index);
  expect((await b.engine.listDeleted()).map((d) => [d.key, d.by])).toEqual([['oncall.md', 'remote']]);
  return { a, b, index };
}

describe('restoring a team memory a teammate deleted', () => {
  it('at a 200-line team index: the memory is back, the index is as it was, and the cap that stopped its line is returned', async () => {
    const { a, b, index } = await deletedByTeammate(200);
    const skipped = await b.engine.restoreDeleted('oncall.md');
    expect(skipped).toEqual({ limit: 'lines', maxLines: 200, maxChars: 25_000, projectSlug: 'p', team: true });
    expect(await b.read('oncall.md')).toBe(memory('On-call'));
    expect(await b.read('MEMORY.md')).toBe(index);
    await b.engine.sync();
    await a.engine.sync();
    expect(await a.read('oncall.md')).toBe(memory('On-call'));
    expect(await a.read('MEMORY.md')).toBe(index);
  });

  it('with room: the memory and its line from its frontmatter come back, and both are shared again', async () => {
    const { a, b, index } = await deletedByTeammate(150);
    expect(await b.engine.restoreDeleted('oncall.md')).toBeNull();
    const restored = `${index}- [On-call](oncall.md) — what On-call says\n`;
    expect(await b.read('MEMORY.md')).toBe(restored);
    await b.engine.sync();
    await a.engine.sync();
    expect(await a.read('MEMORY.md')).toBe(restored);
  });
});
