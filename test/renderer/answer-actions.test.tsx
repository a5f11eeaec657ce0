import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../common/domain/chat';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

const at = '2026-12-05T09:00:00.000Z';
/** A turn whose answer a tool call splits in two blocks, then a turn whose answer is still coming. */
const items: ChatItem[] = [
  { kind: 'user', id: 'u1', text: 'When is the launch?', timestamp: at },
  { kind: 'assistant', id: 'a1', text: 'Let me look at the plan.', timestamp: at },
  { kind: 'tool', id: 't1', name: 'Read', summary: 'plan.md', input: {}, status: 'done', result: 'Friday' },
  { kind: 'assistant', id: 'a2', text: 'The launch is on **Friday**.', timestamp: at },
  { kind: 'user', id: 'u2', text: 'And the venue?', timestamp: at },
  { kind: 'assistant', id: 'a3', text: 'Checking the venue.', timestamp: at },
  { kind: 'tool', id: 't2', name: 'Read', summary: 'venue.md', input: {}, status: 'running' },
];

/** The rows as MessageList renders them (jsdom lays nothing out, so the virtualiser itself shows none). */
async function mount(shown: ChatItem[], busy: boolean) {
  const fake = createFakeApi({ 'chat:regenerate': () => ({ accepted: true as const }) });
  startFakeMain(fake.api);
  const { MessageItem } = await import('../../renderer/src/features/chat/message-item');
  const { turnAnswers } = await import('../../renderer/src/features/chat/turn-answers');
  const answers = turnAnswers(shown);
  const last = shown.findLastIndex((i) => i.kind === 'assistant');
  render(
    <>
      {shown.map((item, i) => (
        <MessageItem key={item.id} item={item} project="/p" sessionId="s1" lastAnswer={i === last} answer={answers.get(i)} busy={busy} />
      ))}
    </>,
  );
  return fake;
}

const blockOf = (text: string) => screen.getByText(text, { exact: false }).closest('.message-block') as HTMLElement;

describe('the actions of an answer', () => {
  it('gives an answer split by a tool call one Copy, which copies the whole answer', async () => {
    await mount(items.slice(0, 4), false);
    const copies = screen.getAllByRole('button', { name: 'Copy answer' });
    expect(copies).toHaveLength(1);
    expect(within(blockOf('Let me look at the plan.')).queryByRole('toolbar')).toBeNull();
    const user = userEvent.setup();
    await user.click(copies[0]!);
    expect(await navigator.clipboard.readText()).toBe('Let me look at the plan.\n\nThe launch is on **Friday**.');
    expect(within(blockOf('The launch is on')).getByRole('button', { name: 'Regenerate' })).toBeTruthy();
  });

  it('offers no Regenerate while a turn runs, and no actions on the answer still being written', async () => {
    await mount(items, true);
    // The running turn's answer (a tool still runs under it) has no actions at all.
    expect(within(blockOf('Checking the venue.')).queryByRole('toolbar')).toBeNull();
    // The finished turn above keeps its Copy; nothing can be regenerated until the turn ends.
    expect(within(blockOf('The launch is on')).getByRole('button', { name: 'Copy answer' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Regenerate' })).toBeNull();
  });

  it('offers Regenerate on the newest answer once the turn is over', async () => {
    const fake = await mount([...items.slice(0, 6), { kind: 'assistant', id: 'a4', text: 'The old hall.', timestamp: at }], false);
    expect(screen.getAllByRole('button', { name: 'Copy answer' })).toHaveLength(2);
    await userEvent.click(within(blockOf('The old hall.')).getByRole('button', { name: 'Regenerate' }));
    expect(fake.calls.filter((c) => c.channel === 'chat:regenerate').map((c) => c.request)).toEqual([{ project: '/p', sessionId: 's1' }]);
  });
});
