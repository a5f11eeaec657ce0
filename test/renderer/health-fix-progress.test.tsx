import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { HealthFixResult, HealthProblem } from '../../common/domain/vault';
import { createFakeApi, startFakeMain } from './support/fake-api';
import { healthReport } from './support/health-report';

afterEach(cleanup);



const missing = (i: number, next?: 'tidy'): HealthProblem => ({
  kind: 'missing-from-index',
  path: `projects/-p/memory/note-${i}.md`,
  projectSlug: '-p',
  team: false,
  message: 'Not listed in MEMORY.md.',
  fix: 'Add it to the index',
  ...(next ? { next } : {}),
});

/** A main whose fix answers only when the test says so, as a fix over thousands of files takes a moment. */
function slowVault(result: HealthFixResult) {
  let problems = Array.from({ length: 300 }, (_, i) => missing(i));
  let release: () => void = () => undefined;
  const fake = createFakeApi({
    'vault:health': () => healthReport(problems),
    'vault:health-fix': () =>
      new Promise<HealthFixResult>((resolve) => {
        release = () => {
          problems = problems.map((p, i) => (i < result.fixed ? null : { ...p, next: 'tidy' as const })).filter((p) => p !== null);
          resolve(result);
        };
      }),
    'vault:health-undo': () => {
      problems = Array.from({ length: 300 }, (_, i) => missing(i));
      return { restored: 1, failed: [] };
    },
  });
  return { fake, release: () => release() };
}

async function mount(fake: ReturnType<typeof createFakeApi>) {
  startFakeMain(fake.api);
  const { HealthPanel } = await import('../../renderer/src/features/vault/health-panel');
  render(<HealthPanel />);
}

describe('Health "Fix all" at scale', () => {
  it('keeps its button, disabled and saying what it does, while the fix runs; then says what did not fit, and Undo takes it back', async () => {
    const { fake, release } = slowVault({ fixed: 11, failed: [], didNotFit: { count: 289, limit: 'lines', maxLines: 200, maxChars: 25_000 }, undoToken: 'tok' });
    await mount(fake);
    const user = userEvent.setup();
    const region = await screen.findByRole('region', { name: 'Memories missing from their index' });
    await user.click(within(region).getByRole('button', { name: 'Fix all 300' }));

    const running = within(region).getByRole('button', { name: 'Adding…' });
    expect(running).toHaveProperty('disabled', true);
    expect(running.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByText(/Adding 300… this can take a moment\./)).toBeTruthy();
    // A second click meanwhile finds the same button, disabled, and asks main for nothing more.
    await user.click(running);
    expect(fake.calls.filter((c) => c.channel === 'vault:health-fix')).toHaveLength(1);
    for (const b of within(region).getAllByRole('button', { name: /^Add it to the index/ }).slice(0, 3)) expect(b).toHaveProperty('disabled', true);

    release();
    await screen.findByText(/^Added 11 memories to the index\. 289 memories did not fit: the agent reads only the first 200 lines and 25,000 characters of MEMORY\.md/);
    await screen.findByText(/289 memories wait for room in a full index/);
    expect(screen.queryByRole('button', { name: /^Fix all/ })).toBeNull();
    // The button clicked went with its rows: the keyboard goes on from the result.
    expect(document.activeElement?.classList.contains('health-note')).toBe(true);
    expect(screen.queryByText('Nothing to fix.')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText('Undone: 1 file is as before the fix.');
    expect(fake.calls.find((c) => c.channel === 'vault:health-undo')?.request).toEqual({ undoToken: 'tok' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Fix all 300' })).toBeTruthy());
  });

  it('says none was added, and which cap stopped it, when one more line would not fit', async () => {
    const { fake, release } = slowVault({ fixed: 0, failed: [], didNotFit: { count: 1, limit: 'characters', maxLines: 200, maxChars: 25_000 } });
    await mount(fake);
    await userEvent.click(await screen.findByRole('button', { name: 'Add it to the index: note-7 · p' }));
    release();
    await screen.findByText('None added: MEMORY.md is full — another line would pass the 25,000 characters the agent reads. Tidy memory to merge memories and make room.');
    // Nothing was written, so there is nothing to undo.
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });
});
