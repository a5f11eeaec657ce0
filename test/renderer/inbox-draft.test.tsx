import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryProposal } from '../../common/domain/chat';
import { createFakeApi, startFakeMain } from './support/fake-api';

const proposal: MemoryProposal = {
  id: 'p1',
  path: 'projects/-p/memory/tabs.md',
  action: 'saved',
  title: 'Prefers tabs',
  type: 'user',
  diff: '+Use tabs.',
  before: null,
  text: '---\nname: Prefers tabs\n---\nUse tabs.\n',
  sessionId: 's1',
  createdAt: '2026-12-04T10:00:00Z',
};

afterEach(() => {
  cleanup();
  localStorage.clear();
});

async function mount(accepted: { text?: string }[]) {
  startFakeMain(createFakeApi({
    'memory:list-proposals': () => [proposal],
    'memory:resolve-proposal': ({ text }) => {
      accepted.push({ ...(text !== undefined ? { text } : {}) });
      return [];
    },
  }).api);
  const { useStore } = await import('../../renderer/src/store');
  const { ReviewPanel } = await import('../../renderer/src/features/vault/review-panel');
  useStore.getState().setActiveProject('/p');
  useStore.getState().setProposals('/p', [proposal]);
  render(<ReviewPanel />);
}

describe('Inbox edits', () => {
  it('keep the text being typed when the Inbox is left and opened again, and accept it', async () => {
    const accepted: { text?: string }[] = [];
    await mount(accepted);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    await userEvent.type(screen.getByLabelText('Memory text'), 'Even in Go.');
    cleanup();
    await mount(accepted);
    const box = (await screen.findByLabelText('Memory text')) as HTMLTextAreaElement;
    expect(box.value).toContain('Use tabs.\nEven in Go.');
    await userEvent.click(screen.getByRole('button', { name: 'Save and accept' }));
    await waitFor(() => expect(accepted).toEqual([{ text: '---\nname: Prefers tabs\n---\nUse tabs.\nEven in Go.' }]));
    expect(localStorage.length).toBe(0);
  });
});
