import { afterEach, describe, expect, it } from 'vitest';
import { chatFixture, type ChatFixture } from '../chat/chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** The memory table's word filter (docs/memory-upkeep.md#the-memory-table), through the real dispatcher. */
describe('vault:match-memories', () => {
  it('finds the memories holding every word as vault search does (stems, accents, a word being typed), memories only, and refuses bad input', async () => {
    f = await chatFixture();
    const make = (fileName: string, name: string, description: string, body: string, team = false) =>
      f!.call('vault:create-memory', { project: f!.project, team, fileName, name, description, type: 'project', body });
    const outage = await make('outage.md', 'Outage review', 'What the incidents taught us', 'Incident 99 took the checkout down for an hour.');
    const cafe = await make('cafe.md', 'Offsite', 'The team met at the Café Flore', 'Incident-free week.', true);
    await make('other.md', 'Deadline', 'Launch on the 11th', 'Nothing about outages: 99 balloons.');
    const paths = async (query: string) => (await f!.call('vault:match-memories', { query })).paths.sort();

    // Every word, stemmed: "incidents … 99" is "incident 99"; "balloons" alone has 99 but no incident.
    expect(await paths('incident 99')).toEqual([outage.meta.path]);
    expect(await paths('incidents')).toEqual([cafe.meta.path, outage.meta.path].sort());
    // Accents folded, and the last word completed as it is typed.
    expect(await paths('cafe')).toEqual([cafe.meta.path]);
    expect(await paths('checko')).toEqual([outage.meta.path]);
    // No any-word fallback: a filter that matches nothing says so.
    expect(await paths('incident balloons')).toEqual([]);
    expect(await paths('   ')).toEqual([]);
    expect((await f.call('vault:match-memories', { query: 'incident 99' })).query).toBe('incident 99');

    // Only memories: the instructions file holds the words too, and vault search finds it, but it is no row of the table.
    await f.call('vault:write-file', { path: 'CLAUDE.md', text: '# Rules\n\nAfter incident 99, test the checkout.\n', baseHash: null });
    expect((await f.call('vault:search', { query: 'incident 99' })).map((h) => h.path)).toContain('CLAUDE.md');
    expect(await paths('incident 99')).toEqual([outage.meta.path]);

    const long = await f.invoke('vault:match-memories', { query: 'x'.repeat(501) });
    expect(long.ok ? null : long.error.code).toBe('invalid_request');
    const extra = await f.invoke('vault:match-memories', { query: 'a', scope: 'transcript' } as never);
    expect(extra.ok ? null : extra.error.code).toBe('invalid_request');
  });
});
