import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../common/domain/settings';
import type { ChatSessionView, SessionSummary } from '../../common/domain/chat';
import { createFakeApi, startFakeMain } from './support/fake-api';
import { useStore } from '../../renderer/src/store';

const PROJECT = '/home/ada/site';
const SESSION = 'session-7';

const view: ChatSessionView = {
  projectPath: PROJECT,
  sessionId: SESSION,
  title: 'The launch plan',
  items: [{ kind: 'user', id: 'u1', text: 'When is the launch?', timestamp: '2026-12-05T01:00:00.000Z' }],
  phase: 'idle',
  error: null,
  context: { used: 10, threshold: 167_000, warning: false },
};

const summary: SessionSummary = { sessionId: SESSION, title: 'The launch plan', updatedAt: '2026-12-05T01:00:00.000Z', messageCount: 1 };

/** A reply main holds back until the test lets it go: a busy main, a slow disk. */
function held<T>(value: T) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { answer: async () => (await gate, value), release };
}

/**
 * A reload returns to where the user was (the project, the conversation, the screen), read back from
 * the window's storage while main answers — and a screen the user picks meanwhile is their newer choice.
 */
async function reload(handlers: Parameters<typeof createFakeApi>[0]) {
  const fake = createFakeApi({
    'app:info': () => ({ name: 'Strata', version: '0.1.0', platform: 'linux', shell: 'electron', vaultRoot: '/v', vaultState: 'ready' }),
    'settings:get': () => defaultSettings(),
    'project:list': () => [{ path: PROJECT, name: 'site', openedAt: '2026-12-05T00:00:00.000Z', memorySlug: '-home-ada-site' }],
    'credentials:status': () => ({ apiKey: 'keychain', driver: 'memory' }),
    'vault:list-files': () => [],
    'chat:open-session': () => view,
    ...handlers,
  });
  startFakeMain(fake.api);
  const { App } = await import('../../renderer/src/app');
  const actions = await import('../../renderer/src/bridge/actions');
  const place = await import('../../renderer/src/bridge/place');
  actions.wireEvents();
  const stop = place.rememberPlace();
  await actions.loadInitialState();
  render(<App />);
  const restored = place.restorePlace();
  return { restored, stop };
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

beforeEach(() => {
  Element.prototype.scrollIntoView ??= () => {};
  localStorage.setItem('strata.place', JSON.stringify({ project: PROJECT, sessionId: SESSION, view: 'chat' }));
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('a reload returns to where the user was', () => {
  it('opens the conversation the user left', async () => {
    const { restored, stop } = await reload({ 'chat:list-sessions': () => [summary] });
    await act(() => restored);
    await screen.findByRole('heading', { name: 'The launch plan', level: 1 });
    expect(nav().getByRole('button', { name: /^Chat/ }).getAttribute('aria-current')).toBe('page');
    stop();
  });

  it('keeps the screen the user picks while the conversation still loads', async () => {
    const sessions = held([summary]);
    const { restored, stop } = await reload({ 'chat:list-sessions': sessions.answer });
    const user = userEvent.setup();
    await user.click(nav().getByRole('button', { name: /^Vault/ }));
    await screen.findByRole('button', { name: 'Search' });
    sessions.release();
    await act(() => restored);
    // Still the vault, its tools in place: nothing that finished loading took the user back to Chat.
    expect(nav().getByRole('button', { name: /^Vault/ }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy();
    // The conversation was restored behind it: Chat shows it.
    await user.click(nav().getByRole('button', { name: /^Chat/ }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'The launch plan', level: 1 })).toBeTruthy());
    stop();
  });

  it('keeps the screen the user picks while the newest conversation opens in place of one that is gone', async () => {
    // The place names a conversation main no longer lists (a new one never written to): Chat opens the newest instead.
    localStorage.setItem('strata.place', JSON.stringify({ project: PROJECT, sessionId: 'never-written', view: 'chat' }));
    const opened = held(view);
    const { restored, stop } = await reload({ 'chat:list-sessions': () => [summary], 'chat:open-session': opened.answer });
    await act(() => restored);
    await screen.findByText('Opening…');
    const user = userEvent.setup();
    await user.click(nav().getByRole('button', { name: /^Vault/ }));
    opened.release();
    await waitFor(() => expect(useStore.getState().activeSessionId).toBe(SESSION));
    expect(nav().getByRole('button', { name: /^Vault/ }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy();
    await user.click(nav().getByRole('button', { name: /^Chat/ }));
    await screen.findByRole('heading', { name: 'The launch plan', level: 1 });
    stop();
  });
});

describe('a conversation main opens slowly', () => {
  const budget: ChatSessionView = { ...view, sessionId: 'session-8', title: 'The budget', items: [] };
  const budgetSummary: SessionSummary = { ...summary, sessionId: 'session-8', title: 'The budget' };
  const listed = { 'chat:list-sessions': () => [summary, budgetSummary] };

  async function opened() {
    const started = await reload({ ...listed, 'chat:open-session': ({ sessionId }) => (sessionId === SESSION ? view : slowBudget.answer()) });
    await act(() => started.restored);
    await screen.findByRole('heading', { name: 'The launch plan', level: 1 });
    return started;
  }
  let slowBudget = held(budget);
  beforeEach(() => (slowBudget = held(budget)));

  it('waits in Chat when the user went to another screen meanwhile, instead of taking them back', async () => {
    const { stop } = await opened();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^The budget/ }));
    await user.click(nav().getByRole('button', { name: /^Vault/ }));
    slowBudget.release();
    await waitFor(() => expect(useStore.getState().activeSessionId).toBe('session-8'));
    expect(nav().getByRole('button', { name: /^Vault/ }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy();
    await user.click(nav().getByRole('button', { name: /^Chat/ }));
    await screen.findByRole('heading', { name: 'The budget', level: 1 });
    stop();
  });

  it('does not replace a conversation the user opened after it', async () => {
    const { stop } = await opened();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^The budget/ }));
    await user.click(screen.getByRole('button', { name: /^The launch plan/ }));
    slowBudget.release();
    await act(() => slowBudget.answer());
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(useStore.getState().activeSessionId).toBe(SESSION);
    expect(screen.getByRole('heading', { name: 'The launch plan', level: 1 })).toBeTruthy();
    stop();
  });

  it('a new conversation made slowly does not take the user back from the vault', async () => {
    const made = held({ ...view, sessionId: 'session-9', title: 'New conversation', items: [] });
    const { restored, stop } = await reload({ ...listed, 'chat:new-session': made.answer });
    await act(() => restored);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^New conversation/ }));
    await user.click(nav().getByRole('button', { name: /^Vault/ }));
    made.release();
    await waitFor(() => expect(useStore.getState().activeSessionId).toBe('session-9'));
    expect(nav().getByRole('button', { name: /^Vault/ }).getAttribute('aria-current')).toBe('page');
    stop();
  });
});
