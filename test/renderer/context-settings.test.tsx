import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../common/domain/settings';
import { err } from '../../common/result';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

async function mount(answer: (patch: Partial<Settings>) => unknown) {
  const fake = createFakeApi({ 'settings:set': ({ patch }) => answer(patch as Partial<Settings>) as never });
  startFakeMain(fake.api);
  const { ContextSection } = await import('../../renderer/src/features/settings/context-section');
  render(<ContextSection settings={defaultSettings()} />);
  return fake;
}

describe('Settings › Memory and long conversations', () => {
  it('saves each choice at once: the memory tool, context editing off, server compaction on', async () => {
    const fake = await mount((patch) => ({ ...defaultSettings(), ...patch }));
    const user = userEvent.setup();
    expect((screen.getByRole('radio', { name: /the way Claude Code does/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: /Clear old tool results/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: /API’s memory tool/ }));
    await user.click(screen.getByRole('checkbox', { name: /Clear old tool results/ }));
    await user.click(screen.getByRole('checkbox', { name: /Let the API summarize/ }));
    const patches = fake.calls.filter((c) => c.channel === 'settings:set').map((c) => (c.request as { patch: object }).patch);
    expect(patches).toEqual([{ memoryWrites: 'memory-tool' }, { contextEditing: false }, { serverCompaction: true }]);
  });

  it('saves the Claude Code memory format at once, 2.1.88 chosen until the user picks the newest', async () => {
    const fake = await mount((patch) => ({ ...defaultSettings(), ...patch }));
    const user = userEvent.setup();
    const older = screen.getByRole('radio', { name: /Claude Code 2\.1\.88 format/ }) as HTMLInputElement;
    const newest = screen.getByRole('radio', { name: /newest Claude Code format/ }) as HTMLInputElement;
    expect([older.checked, newest.checked]).toEqual([true, false]);
    await user.click(newest);
    expect([older.checked, newest.checked]).toEqual([false, true]);
    // The two radio groups are independent: the memory-writing choice is untouched.
    expect((screen.getByRole('radio', { name: /the way Claude Code does/ }) as HTMLInputElement).checked).toBe(true);
    const patches = fake.calls.filter((c) => c.channel === 'settings:set').map((c) => (c.request as { patch: object }).patch);
    expect(patches).toEqual([{ memoryShape: 'metadata' }]);
  });

  it('puts the old choice back when the save fails', async () => {
    await mount(() => err('io_error', 'disk full'));
    const user = userEvent.setup();
    const box = screen.getByRole('checkbox', { name: /Let the API summarize/ }) as HTMLInputElement;
    await user.click(box);
    await waitFor(() => expect(box.checked).toBe(false));
  });
});
