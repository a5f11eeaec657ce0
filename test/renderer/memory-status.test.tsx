import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../common/domain/settings';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

const PROJECT = '/work/site';

/** The header's memory state over a fake main that keeps the saved settings. */
async function mount(incognito: boolean) {
  let settings: Settings = defaultSettings();
  const fake = createFakeApi({
    'settings:set': ({ patch }) => {
      settings = { ...settings, ...(patch as Partial<Settings>) };
      return settings;
    },
  });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  const { MemoryStatus } = await import('../../renderer/src/features/memory-controls/incognito');
  useStore.getState().setSettings(settings);
  render(<MemoryStatus project={PROJECT} incognito={incognito} />);
  return { fake, useStore, current: () => settings };
}

describe('the chat header’s memory state', () => {
  it('pauses memory for a project that has no saved switches yet, and shows it pressed', async () => {
    const { fake, useStore, current } = await mount(false);
    await userEvent.click(screen.getByRole('button', { name: 'Pause memory' }));
    await waitFor(() => expect(current().projects[PROJECT]?.memoryPaused).toBe(true));
    // Other switches keep their defaults.
    expect(current().projects[PROJECT]).toMatchObject({ autoMemory: true, extraction: true, memoryPaused: true });
    useStore.getState().setSettings(current());
    expect(await screen.findByRole('button', { name: 'Memory paused', pressed: true })).toBeTruthy();
    expect(fake.calls.filter((c) => c.channel === 'settings:set')).toHaveLength(1);
  });

  it('marks an incognito conversation instead of offering the switch', async () => {
    await mount(true);
    expect(screen.getByText('Incognito').textContent).toBe('Incognito — nothing is remembered');
    expect(screen.queryByRole('button', { name: /memory/i })).toBeNull();
  });
});
