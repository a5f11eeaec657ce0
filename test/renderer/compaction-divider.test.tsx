import { cleanup, render, screen } from '@testing-library/react';
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
  const opened: string[] = [];
  const fake = createFakeApi({
    'vault:read-file': ({ path }) => {
      opened.push(path);
      return { path, text: '', hash: 'h'.repeat(64), meta: null } as never;
    },
  });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  useStore.getState().setInfo({ name: 'Strata', version: '0', platform: 'linux', shell: 'electron', vaultRoot: '/v', vaultState: 'ready' });
  const { CompactionDivider } = await import('../../renderer/src/features/chat/compaction-divider');
  render(<CompactionDivider item={item} />);
  return { opened, useStore };
}

afterEach(cleanup);

describe('the compaction divider', () => {
  it('says how much, how, what was kept, and opens the full transcript in the vault', async () => {
    const { opened, useStore } = await mount(divider());
    const line = screen.getByRole('separator', { name: 'Conversation compacted' });
    expect(line.textContent).toContain('Compacted 170.4k → 12.1k tokens using the session notes (no model call).');
    expect(line.textContent).toContain('The last 14 messages were kept word for word.');
    await userEvent.click(screen.getByRole('button', { name: 'Open the full transcript' }));
    expect(useStore.getState().view).toBe('vault');
    expect(opened).toEqual(['projects/-p/s1.jsonl']);
  });

  it('names the reason when the summarizer ran instead', async () => {
    await mount(divider({ path: 'summarizer', reason: 'template', keptMessages: 0 }));
    const text = screen.getByRole('separator').textContent!;
    expect(text).toContain('using a summary written by the model, because the session notes were still empty.');
    expect(text).not.toContain('kept word for word');
  });
});
