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
    expect(await f.call('vault:health-fix', { kind: 'frontmatter' })).toMatchObject({ fixed: 1, failed: [] });
    expect((await f.call('vault:health', {})).problems.filter((p) => p.kind === 'frontmatter')).toEqual([]);
    const bad = await f.invoke('vault:health-fix', { kind: 'everything' } as never);
    expect(bad.ok ? null : bad.error.code).toBe('invalid_request');

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
