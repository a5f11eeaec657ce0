import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../common/domain/chat';
import { createFakeApi, startFakeMain } from './support/fake-api';

type Divider = Extract<ChatItem, { kind: 'compaction' }>;
const divider = (over: Partial<Divider> = {}): Divider => ({
  kind: 'compaction',
  id: 'b1',
  path: 'session-notes',
  reason: null,
  tokensBefore: 170_400,
  tokensAfter: 12_100,
  keptMessages: 14,
  transcriptPath: '/v/projects/-p/s1.jsonl',
  ...over,
});

async function mount(item: Divider) {
  const asked: unknown[] = [];
  const fake = createFakeApi({
    'chat:before-compaction': (request) => {
      asked.push(request);
      return {
        items: [
          { kind: 'user', id: 'u1', text: 'Where is the launch checklist?', timestamp: '2026-01-01T00:00:00.000Z' },
          { kind: 'assistant', id: 'm1', text: 'In **docs/launch.md**.', timestamp: '2026-01-01T00:00:01.000Z' },
        ],
        summary: 'Primary request: the launch checklist.',
        raw: '{"type":"user","uuid":"u1"}\n{"type":"assistant","uuid":"a1"}',
      };
    },
  });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  useStore.getState().setInfo({ name: 'Strata', version: '0', platform: 'linux', shell: 'electron', vaultRoot: '/v', vaultState: 'ready' });
  const { CompactionDivider } = await import('../../renderer/src/features/chat/compaction-divider');
  render(<CompactionDivider item={item} project="/p" sessionId="s1" />);
  return { asked };
}

afterEach(cleanup);

describe('the compaction divider', () => {
  it('says how much, how, what was kept, and shows what it replaced read-only, as the conversation or raw', async () => {
    const { asked } = await mount(divider());
    const line = screen.getByRole('separator', { name: 'Conversation compacted' });
    expect(line.textContent).toContain('Compacted 170.4k → 12.1k tokens using the session notes Strata already keeps.');
    expect(line.textContent).toContain('The last 14 messages were kept word for word.');
    await userEvent.click(screen.getByRole('button', { name: 'Show what it replaced' }));
    const dialog = await screen.findByRole('dialog', { name: 'Before this compaction (read-only)' });
    expect(asked).toEqual([{ project: '/p', sessionId: 's1', compactionId: 'b1' }]);
    const past = await within(dialog).findByRole('log', { name: 'Conversation before the compaction' });
    expect(within(past).getByRole('article', { name: 'You' }).textContent).toBe('Where is the launch checklist?');
    expect(within(past).getByRole('article', { name: 'Strata' }).textContent).toContain('In docs/launch.md.');
    // Read-only: none of the live chat's actions.
    expect(within(dialog).queryByRole('button', { name: /Edit|Regenerate|Continue/ })).toBeNull();
    expect(within(dialog).getByText('Primary request: the launch checklist.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show raw' }));
    expect(within(dialog).getByLabelText('Transcript records').textContent).toContain('"uuid":"a1"');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('names the reason when the summarizer ran instead', async () => {
    await mount(divider({ path: 'summarizer', reason: 'template', keptMessages: 0 }));
    const text = screen.getByRole('separator').textContent!;
    expect(text).toContain('using a summary written by the model, because the session notes were still empty.');
    expect(text).not.toContain('kept word for word');
  });
});
