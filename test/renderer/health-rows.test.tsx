import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { HealthFixKind, HealthProblem } from '../../common/domain/vault';
import { createFakeApi, startFakeMain, type FakeHandlers } from './support/fake-api';
import { healthReport } from './support/health-report';

afterEach(cleanup);



const problem = (kind: HealthFixKind, path: string, fix: string): HealthProblem => ({
  kind,
  path,
  projectSlug: '-p',
  team: false,
  message: `${kind} message for ${path}.`,
  fix,
});

/** A main that forgets what it fixed (or all of a kind when no paths are given), as the real fix does. */
function vaultWith(initial: HealthProblem[], refuse: string[] = [], more: FakeHandlers = {}) {
  let problems = initial;
  return createFakeApi({
    'vault:health': () => healthReport(problems),
    'vault:health-fix': ({ kind, paths }) => {
      const hit = (p: HealthProblem) => p.kind === kind && (!paths || paths.includes(p.path));
      const fixed = problems.filter((p) => hit(p) && !refuse.includes(p.path));
      problems = problems.filter((p) => !fixed.includes(p));
      return { fixed: fixed.length, failed: refuse.filter((path) => problems.some((p) => p.path === path && hit(p))).map((path) => ({ path, reason: 'the file is read-only' })) };
    },
    ...more,
  });
}

async function mount(fake: ReturnType<typeof createFakeApi>) {
  startFakeMain(fake.api);
  const { HealthPanel } = await import('../../renderer/src/features/vault/health-panel');
  const { useStore } = await import('../../renderer/src/store');
  render(<HealthPanel />);
  return useStore;
}

const fixCalls = (fake: ReturnType<typeof createFakeApi>) => fake.calls.filter((c) => c.channel === 'vault:health-fix').map((c) => c.request);

describe('Health problems', () => {
  it('draws the first rows of a long list, named by file, and the rest on request', async () => {
    const many = Array.from({ length: 120 }, (_, i) => problem('missing-from-index', `projects/-p/memory/note-${i}.md`, 'Add it to the index'));
    await mount(vaultWith(many));
    const more = await screen.findByRole('button', { name: 'Show all 120' });
    const fixButtons = () => screen.getAllByRole('button', { name: /^Add it to the index:/ }).length;
    expect(fixButtons()).toBe(50);
    expect(screen.getByText('note-0 · p').getAttribute('title')).toBe('projects/-p/memory/note-0.md');
    expect(screen.getByRole('button', { name: 'Fix all 120' })).toBeTruthy();
    await userEvent.click(more);
    expect(fixButtons()).toBe(120);
  });

  it('groups by kind; one click fixes one file, "Fix all" fixes the kind, and the report refreshes after each', async () => {
    const fake = vaultWith([
      problem('broken-pointer', 'projects/-p/memory/gone.md', 'Remove the line'),
      problem('stale', 'projects/-p/memory/a.md', 'Still true'),
      problem('stale', 'projects/-p/memory/b.md', 'Still true'),
      problem('stale', 'projects/-p/memory/c.md', 'Still true'),
    ]);
    await mount(fake);
    const user = userEvent.setup();
    const stale = await screen.findByRole('region', { name: 'Not updated in 90 days' });
    const pointers = screen.getByRole('region', { name: 'Index lines that point at nothing' });
    expect(within(pointers).getByText(/broken-pointer message/).textContent).toContain('p:');
    expect(within(pointers).queryByRole('button', { name: /^Fix all/ })).toBeNull();

    await user.click(within(stale).getByRole('button', { name: 'Still true: a · p' }));
    await waitFor(() => expect(within(stale).queryByText(/memory\/a\.md/)).toBeNull());
    expect(within(stale).getAllByRole('button', { name: /^Still true:/ })).toHaveLength(2);

    await user.click(within(stale).getByRole('button', { name: 'Fix all 2' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Not updated in 90 days' })).toBeNull());
    expect(screen.getByRole('region', { name: 'Index lines that point at nothing' })).toBeTruthy();
    expect(fixCalls(fake)).toEqual([{ kind: 'stale', paths: ['projects/-p/memory/a.md'] }, { kind: 'stale' }]);

    await user.click(screen.getByRole('button', { name: /^Remove the line:/ }));
    await screen.findByText('Nothing to fix.');
  });

  it('says which file could not be fixed and why, and keeps it listed', async () => {
    const fake = vaultWith(
      [problem('frontmatter', 'projects/-p/memory/locked.md', 'Repair the frontmatter'), problem('frontmatter', 'projects/-p/memory/ok.md', 'Repair the frontmatter')],
      ['projects/-p/memory/locked.md'],
    );
    await mount(fake);
    await userEvent.click(await screen.findByRole('button', { name: 'Fix all 2' }));
    await screen.findByText('Repaired the header of 1 memory. Could not fix locked.md: the file is read-only.');
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Repair the frontmatter:/ })).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Repair the frontmatter: locked · p' })).toBeTruthy();
  });

  it('points a full team index at the team MEMORY.md, for the tidy-up works on the user’s own memories only', async () => {
    const team = (kind: HealthProblem['kind'], path: string, fix: string, next?: 'tidy'): HealthProblem => ({ ...problem(kind as HealthFixKind, path, fix), team: true, ...(next ? { next } : {}) });
    const fake = vaultWith(
      [
        team('index-over-cap', 'projects/-p/memory/team/MEMORY.md', 'Open the team MEMORY.md'),
        team('missing-from-index', 'projects/-p/memory/team/oncall.md', 'Add it to the index', 'tidy'),
      ],
      [],
      { 'vault:read-file': ({ path }) => ({ meta: { path, title: 'MEMORY.md' }, text: '- [A](a.md) — a\n', hash: 'h' }) as never },
    );
    const useStore = await mount(fake);
    await screen.findByText(/shortening the team index comes first/);
    expect(screen.queryByRole('button', { name: 'Tidy memory in the Inbox' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /^Open the team MEMORY\.md:/ }));
    await waitFor(() => expect(useStore.getState().selectedPath).toBe('projects/-p/memory/team/MEMORY.md'));
    expect(useStore.getState().view).toBe('vault');
    // The section's own button goes to the same file.
    useStore.getState().setScreen('chat');
    await userEvent.click(screen.getByRole('button', { name: 'Open the team MEMORY.md' }));
    await waitFor(() => expect(useStore.getState().view).toBe('vault'));
  });

  it('says a fix that did not fit the team index is the team MEMORY.md’s to shorten, and opens it', async () => {
    const row: HealthProblem = { ...problem('missing-from-index', 'projects/-p/memory/team/oncall.md', 'Add it to the index'), team: true };
    const fake = vaultWith([row], [], {
      'vault:health-fix': () => ({ fixed: 0, failed: [], didNotFit: { count: 1, limit: 'lines', maxLines: 200, maxChars: 25_000 } }),
      'vault:read-file': ({ path }) => ({ meta: { path, title: 'MEMORY.md' }, text: '', hash: 'h' }) as never,
    });
    const useStore = await mount(fake);
    await userEvent.click(await screen.findByRole('button', { name: /^Add it to the index:/ }));
    const note = await screen.findByRole('status');
    expect(note.textContent).toContain('The tidy-up works on your own memories, not the team’s: shorten the team MEMORY.md to make room.');
    await userEvent.click(within(note).getByRole('button', { name: 'Open the team MEMORY.md' }));
    await waitFor(() => expect(useStore.getState().selectedPath).toBe('projects/-p/memory/team/MEMORY.md'));
  });
});
