import { afterEach, describe, expect, it } from 'vitest';
import { chatFixture, type ChatFixture } from '../chat/chat-fixture.js';

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

/** The vault engine's new channels, through the real dispatcher and services (validation included). */
describe('vault channels for Health, links, search pages and history authors', () => {
  it('lists a broken memory in Health, fixes its kind in one call, and resolves links and backlinks', async () => {
    f = await chatFixture();
    const tabs = await f.call('vault:create-memory', {
      project: f.project, team: false, fileName: 'prefers-tabs.md', name: 'prefers-tabs', description: 'Tabs: always', type: 'feedback', body: 'See [[code-style]] and [[later]].',
    });
    const dir = tabs.meta.path.slice(0, tabs.meta.path.lastIndexOf('/'));
    await f.call('vault:create-memory', {
      project: f.project, team: false, fileName: 'code_style.md', name: 'Code style', description: 'House style', type: 'project', body: 'Per [[prefers-tabs]].',
    });
    await f.call('vault:write-file', { path: `${dir}/broken.md`, text: '---\nname: a\nname: b\n---\nBroken.\n', baseHash: null });
    const health = await f.call('vault:health', {});
    expect(health.problems.filter((p) => p.kind === 'frontmatter').map((p) => p.path)).toEqual([`${dir}/broken.md`]);
    const fixed = await f.call('vault:health-fix', { kind: 'frontmatter' });
    expect(fixed).toMatchObject({ fixed: 1, failed: [], undoToken: expect.any(String) });
    expect((await f.call('vault:health', {})).problems.filter((p) => p.kind === 'frontmatter')).toEqual([]);
    const bad = await f.invoke('vault:health-fix', { kind: 'everything' } as never);
    expect(bad.ok ? null : bad.error.code).toBe('invalid_request');
    // An index over its cap has no one-click fix to ask for.
    const overCap = await f.invoke('vault:health-fix', { kind: 'index-over-cap' } as never);
    expect(overCap.ok ? null : overCap.error.code).toBe('invalid_request');
    expect(await f.call('vault:health-undo', { undoToken: fixed.undoToken! })).toEqual({ restored: 1, failed: [] });
    expect((await f.call('vault:health', {})).problems.filter((p) => p.kind === 'frontmatter').map((p) => p.path)).toEqual([`${dir}/broken.md`]);
    const again = await f.invoke('vault:health-undo', { undoToken: fixed.undoToken! });
    expect(again.ok ? null : again.error.code).toBe('not_found');
    const empty = await f.invoke('vault:health-undo', { undoToken: '' });
    expect(empty.ok ? null : empty.error.code).toBe('invalid_request');

    const links = await f.call('vault:memory-links', { path: tabs.meta.path });
    expect(links.links).toEqual([
      { name: 'code-style', path: `${dir}/code_style.md`, title: 'Code style' },
      { name: 'later', path: null, title: null },
    ]);
    expect(links.backlinks).toEqual([{ path: `${dir}/code_style.md`, title: 'Code style' }]);

    const page = await f.call('vault:search-page', { query: 'style', limit: 1 });
    expect(page.total).toBeGreaterThanOrEqual(2);
    expect(page.hits).toHaveLength(1);
    expect(await f.call('vault:history-current', { path: `${dir}/broken.md` })).toMatchObject({ author: { kind: 'you' } });
  });
});
