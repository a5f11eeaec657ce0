import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/domain/settings';
import type { ChatError } from '../../common/domain/chat';
import { createFakeApi, startFakeMain } from './support/fake-api';

/** The banner of a failed turn, over the renderer's store and the fake bridge. */
async function mount(error: ChatError, baseUrl: string | null) {
  startFakeMain(createFakeApi({}).api);
  const { useStore } = await import('../../renderer/src/store');
  useStore.setState({ settings: { ...defaultSettings(), baseUrl } });
  const { ChatErrorBanner } = await import('../../renderer/src/features/chat/chat-error');
  render(<ChatErrorBanner error={error} project="/p" sessionId="s1" />);
  return useStore;
}

afterEach(() => {
  cleanup();
});

const offline: ChatError = { kind: 'offline', message: 'Cannot reach the API. Check your connection or the base URL, then retry.' };

describe('the chat error banner', () => {
  it('offers Settings when the model cannot be reached through a base URL the user set', async () => {
    const store = await mount(offline, 'http://127.0.0.1:9');
    await userEvent.click(screen.getByRole('button', { name: 'Open Settings' }));
    expect(store.getState().view).toBe('settings');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('offers only Retry when the default address cannot be reached (the connection, not a setting)', async () => {
    await mount(offline, null);
    expect(screen.queryByRole('button', { name: 'Open Settings' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
