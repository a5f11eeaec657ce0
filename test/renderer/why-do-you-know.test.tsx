import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../common/domain/chat';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

const DEPLOY = 'projects/-p/memory/project_deploy.md';
const at = '2026-12-05T09:00:00.000Z';
const items: ChatItem[] = [
  { kind: 'user', id: 'u1', text: 'Which day do we deploy?', timestamp: at },
  {
    kind: 'recall',
    id: 'r1',
    memories: [
      { path: DEPLOY, title: 'Deploy day', ageDays: 3, why: 'picked by the model · #1 in the local ranking · has “deploy”' },
      { path: 'projects/-p/memory/user_role.md', title: 'Role', ageDays: 0 },
    ],
  },
  { kind: 'assistant', id: 'a1', text: 'Let me check the calendar.', timestamp: at },
  { kind: 'assistant', id: 'a2', text: 'On Thursdays.', timestamp: at },
  { kind: 'user', id: 'u2', text: 'And what is 2 + 2?', timestamp: at },
  { kind: 'assistant', id: 'a3', text: 'Four.', timestamp: at },
];

/** The conversation over the fake bridge, as the chat shows it. */
async function mount() {
  const fake = createFakeApi({
    'vault:read-file': ({ path }) => ({ meta: { path, title: 'Deploy day' }, text: '---\nname: Deploy day\n---\nThursdays.\n', hash: 'h' }) as never,
  });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  // The list's rows, as MessageList renders them (jsdom lays nothing out, so its virtualiser shows no rows;
  // the e2e test covers the list itself in Chromium).
  const { MessageItem } = await import('../../renderer/src/features/chat/message-item');
  const { turnAnswers } = await import('../../renderer/src/features/chat/turn-answers');
  const answers = turnAnswers(items);
  render(
    <>
      {items.map((item, i) => (
        <MessageItem key={item.id} item={item} project="/p" sessionId="s1" answer={answers.get(i)} />
      ))}
    </>,
  );
  return { fake, useStore };
}

describe('“Why do you know this?” on an answer (docs/memory.md#provenance-and-use)', () => {
  it('is offered on the answer that closes a turn recall attached memories to, and nowhere else', async () => {
    await mount();
    const answers = screen.getAllByRole('article', { name: 'Strata' });
    expect(answers).toHaveLength(3);
    const buttons = screen.getAllByRole('button', { name: 'Why do you know this?' });
    expect(buttons).toHaveLength(1);
    // It sits with the turn's final answer, not the one before the tool step, nor the next turn's.
    expect(buttons[0]!.closest('.message-block')!.textContent).toContain('On Thursdays.');
  });

  it('lists the recalled memories, each opening its file in the vault', async () => {
    const { fake, useStore } = await mount();
    const why = screen.getByRole('button', { name: 'Why do you know this?' });
    expect(why.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(why);
    expect(why.getAttribute('aria-expanded')).toBe('true');
    const list = screen.getByRole('region', { name: 'Memories behind this answer' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Deploy day saved 3 days agopicked by the model · #1 in the local ranking · has “deploy”',
      'Role saved today',
    ]);
    await userEvent.click(within(list).getByRole('button', { name: 'Deploy day' }));
    expect(useStore.getState().view).toBe('vault');
    await waitFor(() => expect(fake.calls.filter((c) => c.channel === 'vault:read-file').map((c) => (c.request as { path: string }).path)).toEqual([DEPLOY]));
    await userEvent.click(why);
    expect(screen.queryByRole('region', { name: 'Memories behind this answer' })).toBeNull();
  });

  it('shows on a chip why recall chose that memory, with a way to open it', async () => {
    const { fake, useStore } = await mount();
    const chips = screen.getByLabelText('Memories used');
    const chip = within(chips).getByRole('button', { name: 'Deploy day' });
    await userEvent.click(chip);
    expect(chip.getAttribute('aria-expanded')).toBe('true');
    const why = screen.getByRole('region', { name: 'Why “Deploy day”' });
    expect(why.textContent).toContain('picked by the model · #1 in the local ranking · has “deploy”');
    // A memory recalled before reasons were kept says so instead of showing nothing.
    await userEvent.click(within(chips).getByRole('button', { name: 'Role' }));
    expect(screen.getByRole('region', { name: 'Why “Role”' }).textContent).toContain('no reasons were kept');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: /^Why/ })).toBeNull();
    await userEvent.click(chip);
    await userEvent.click(within(screen.getByRole('region', { name: 'Why “Deploy day”' })).getByRole('button', { name: 'Open memory' }));
    expect(useStore.getState().view).toBe('vault');
    await waitFor(() => expect(fake.calls.filter((c) => c.channel === 'vault:read-file').map((c) => (c.request as { path: string }).path)).toEqual([DEPLOY]));
  });
});
