import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings, type Settings } from '../../common/domain/settings';
import type { CredentialStatus, Project } from '../../common/domain/app';
import { createFakeApi, startFakeMain } from './support/fake-api';

/**
 * The renderer as Electron runs it: the bridge is started with the preload's API (here the fake, which
 * answers from the contract), then the app's events are wired and its first state loaded.
 */
async function mountApp(
  overrides: { settings?: Settings; credentials?: CredentialStatus; projects?: Project[]; handlers?: Parameters<typeof createFakeApi>[0] } = {},
) {
  let settings = overrides.settings ?? defaultSettings();
  const fake = createFakeApi({
    'app:info': () => ({ name: 'Strata', version: '0.1.0', platform: 'linux', shell: 'electron', vaultRoot: '/v', vaultState: 'ready' }),
    'settings:get': () => settings,
    'settings:set': ({ patch }) => (settings = { ...settings, ...patch } as Settings),
    'project:list': () => overrides.projects ?? [],
    'credentials:status': () => overrides.credentials ?? { apiKey: 'missing', driver: 'memory' },
    'credentials:set-api-key': () => ({ apiKey: 'keychain', driver: 'keytar' }),
    'chat:list-sessions': () => [],
    'chat:new-session': ({ project }) => ({
      projectPath: project,
      sessionId: 'session-1',
      title: 'New conversation',
      items: [],
      phase: 'idle',
      error: null,
      context: { used: 0, threshold: 167_000, warning: false },
    }),
    ...overrides.handlers,
  });
  startFakeMain(fake.api);
  const { App } = await import('../../renderer/src/app');
  const actions = await import('../../renderer/src/bridge/actions');
  actions.wireEvents();
  await actions.loadInitialState();
  render(<App />);
  return fake;
}

beforeEach(() => {
  document.documentElement.removeAttribute('data-theme');
  // jsdom lays nothing out; the pickers keep their active row in view with this.
  Element.prototype.scrollIntoView ??= () => {};
});
afterEach(() => {
  cleanup();
});

describe('the app shell', () => {
  it('guides a new user to open a folder and add an API key', async () => {
    await mountApp();
    expect(screen.getByRole('heading', { name: 'Welcome to Strata' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Open a folder/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add API key in Settings' })).toBeTruthy();
    expect(screen.getByText('No folders opened yet.')).toBeTruthy();
  });

  it('says the key is found when one is in the keychain', async () => {
    await mountApp({ credentials: { apiKey: 'keychain', driver: 'keytar' } });
    expect(screen.getByText('API key found.')).toBeTruthy();
    expect(screen.getByText('Using the key saved in your system keychain.')).toBeTruthy();
  });

  it('never promises a keychain the machine does not have', async () => {
    await mountApp({ credentials: { apiKey: 'missing', driver: 'memory' } });
    const step = screen.getByText('Add your Anthropic API key.').closest('li')!;
    expect(step.textContent).toContain('This computer has no system keychain, so a key added here lasts only until Strata stops.');
    expect(step.textContent).not.toContain('goes to your system keychain');
    cleanup();
    await mountApp({ credentials: { apiKey: 'missing', driver: 'safe-storage' } });
    expect(screen.getByText('Add your Anthropic API key.').closest('li')!.textContent).toContain('No system keychain answered, so it is saved encrypted');
  });

  // One key, one sentence: the Welcome screen and Settings say the same, whatever the host's keyring.
  it.each([
    [{ apiKey: 'environment', driver: 'memory' }, 'Using the key in the ANTHROPIC_API_KEY environment variable.'],
    [{ apiKey: 'environment', driver: 'keytar' }, 'Using the key in the ANTHROPIC_API_KEY environment variable.'],
    [{ apiKey: 'keychain', driver: 'memory' }, 'Using the key you entered, until Strata stops (this computer has no system keychain).'],
    [{ apiKey: 'keychain', driver: 'safe-storage' }, 'Using the key saved encrypted in Strata’s data folder.'],
  ] as const)('words the key of %o the same on the Welcome screen and in Settings', async (credentials, words) => {
    await mountApp({ credentials });
    expect(screen.getByText('API key found.').closest('li')!.textContent).toContain(words);
    await userEvent.setup().click(screen.getByRole('button', { name: /^Settings/ }));
    expect(within(screen.getByRole('form', { name: 'Anthropic API key' })).getByText(words)).toBeTruthy();
  });

  it('saves an API key through the contract and never shows it back', async () => {
    const fake = await mountApp();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add API key in Settings' }));
    await user.type(screen.getByLabelText('API key'), 'sk-ant-api03-abc');
    await user.click(screen.getByRole('button', { name: 'Save key' }));
    await screen.findByText('Saved to your system keychain.');
    expect(fake.calls.find((c) => c.channel === 'credentials:set-api-key')?.request).toEqual({ key: 'sk-ant-api03-abc' });
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect(document.body.textContent).not.toContain('sk-ant-api03-abc');
  });

  it('follows a theme change pushed from main', async () => {
    const fake = await mountApp();
    act(() => fake.emit('settings:did-change', { ...defaultSettings(), theme: 'dark' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  });

  it('says when the vault folder goes missing, and stops saying it when it is back', async () => {
    const fake = await mountApp();
    expect(screen.queryByRole('alert', { name: /vault folder is missing/i })).toBeNull();
    act(() => fake.emit('vault:did-change-state', { root: '/v', state: 'root-missing' }));
    expect(await screen.findByText(/The vault folder is missing/)).toBeTruthy();
    act(() => fake.emit('vault:did-change-state', { root: '/v', state: 'ready' }));
    expect(screen.queryByText(/The vault folder is missing/)).toBeNull();
  });

  it('lists projects pushed from main and opens one from the sidebar', async () => {
    const fake = await mountApp({ credentials: { apiKey: 'keychain', driver: 'keytar' } });
    const user = userEvent.setup();
    act(() => fake.emit('project:did-change-list', [{ path: '/home/u/notes', name: 'notes', openedAt: '2026-12-01T00:00:00Z', memorySlug: '-home-u-notes' }]));
    await user.click(await screen.findByRole('button', { name: 'notes' }));
    expect(await screen.findByRole('heading', { name: 'New conversation', level: 1 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'notes' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('heading', { name: 'Start a conversation' })).toBeTruthy();
    // The cursor waits in the prompt of the opened conversation.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Message')));
  });

  it('shows an error from main as a dismissible alert', async () => {
    const fake = await mountApp();
    const user = userEvent.setup();
    const { openProject } = await import('../../renderer/src/bridge/actions');
    expect(fake.calls.some((c) => c.channel === 'project:open')).toBe(false);
    await act(async () => {
      await openProject('/nope');
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('project:open is not scripted');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('gives the keyboard back to where it was when the command palette closes, and shows each command’s shortcut', async () => {
    const fake = await mountApp();
    const user = userEvent.setup();
    const opener = screen.getByRole('button', { name: /Open a folder/ });
    opener.focus();
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.getByRole('option', { name: /Go to Chat/ }).textContent).toContain('Ctrl+1');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Commands' })).toBeNull();
    expect(document.activeElement).toBe(opener);

    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('dark theme{Enter}');
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'settings:set')).toBe(true));
    expect(document.activeElement).toBe(opener);
  });

  it('opens the quick switcher from the palette with an empty filter', async () => {
    await mountApp();
    const user = userEvent.setup();
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('open a vault file{Enter}');
    const filter = await screen.findByRole('combobox', { name: 'Open a vault file' });
    expect((filter as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(filter);
  });

  it('keeps the keyboard on the conversation list after a rename (F2) and a delete (Delete)', async () => {
    const summary = (sessionId: string, title: string) => ({ sessionId, title, updatedAt: '2026-12-01T00:00:00Z', messageCount: 2 });
    let listed = [summary('a', 'Plan the launch'), summary('b', 'Fix the build')];
    const fake = await mountApp({
      credentials: { apiKey: 'keychain', driver: 'keytar' },
      projects: [{ path: '/home/u/notes', name: 'notes', openedAt: '2026-12-01T00:00:00Z', memorySlug: '-home-u-notes' }],
      handlers: {
        'chat:list-sessions': () => listed,
        'chat:rename-session': ({ sessionId, title }) => (listed = listed.map((s) => (s.sessionId === sessionId ? { ...s, title } : s))),
        'chat:delete-session': ({ sessionId }) => {
          listed = listed.filter((s) => s.sessionId !== sessionId);
          return { undoToken: 'undo-1' };
        },
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'notes' }));
    const conversations = screen.getByRole('region', { name: 'Conversations' });
    (await within(conversations).findByRole('button', { name: 'Plan the launch' })).focus();
    await user.keyboard('{F2}');
    await user.clear(screen.getByLabelText('New title'));
    await user.keyboard('Launch plan{Enter}');
    await waitFor(() => expect(document.activeElement).toBe(within(conversations).getByRole('button', { name: 'Launch plan' })));

    await user.keyboard('{Delete}');
    await screen.findByText('Deleted “Launch plan”.');
    expect(fake.calls.find((c) => c.channel === 'chat:delete-session')?.request).toEqual({ project: '/home/u/notes', sessionId: 'a' });
    await waitFor(() => expect(document.activeElement).toBe(within(conversations).getByRole('button', { name: 'Fix the build' })));

    // The last one gone, the project's chat opens a new conversation, ready to type into.
    await user.keyboard('{Delete}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Message', { exact: true })));
  });

  it('keeps a toast, and its Undo, while the pointer or the keyboard is on it', async () => {
    await mountApp();
    const { useStore } = await import('../../renderer/src/store');
    vi.useFakeTimers();
    try {
      act(() => useStore.getState().showToast({ text: 'Deleted “Plan”.', actionLabel: 'Undo', action: () => {} }));
      const toast = screen.getByText('Deleted “Plan”.').closest('.toast')!;
      fireEvent.mouseEnter(toast);
      act(() => vi.advanceTimersByTime(20_000));
      expect(screen.queryByText('Deleted “Plan”.')).not.toBeNull();
      fireEvent.mouseLeave(toast);
      act(() => screen.getByRole('button', { name: 'Undo' }).focus());
      act(() => vi.advanceTimersByTime(20_000));
      expect(screen.queryByText('Deleted “Plan”.')).not.toBeNull();
      act(() => screen.getByRole('button', { name: 'Undo' }).blur());
      act(() => vi.advanceTimersByTime(8_001));
      expect(screen.queryByText('Deleted “Plan”.')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
