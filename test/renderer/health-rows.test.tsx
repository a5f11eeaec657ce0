import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HealthReport } from '../../common/domain/vault';
import { createFakeApi } from './support/fake-api';

afterEach(cleanup);

const report = (missing: number): HealthReport => ({
  totalTokens: 1000,
  files: [],
  indexes: [],
  stale: [],
  duplicates: [],
  largeInstructions: [],
  problems: [],
  brokenPointers: [],
  missingFromIndex: Array.from({ length: missing }, (_, i) => ({ projectSlug: '-p', path: `projects/-p/memory/note-${i}.md` })),
});

describe('Health with many findings', () => {
  it('draws the first rows of a long list, named by file, and the rest on request', async () => {
    window.strata = createFakeApi({ 'vault:health': () => report(120) }).api;
    vi.resetModules();
    const { HealthPanel } = await import('../../renderer/src/features/vault/health-panel');
    render(<HealthPanel />);
    const more = await screen.findByRole('button', { name: 'Show all 120' });
    const addButtons = () => [...document.querySelectorAll('button')].filter((b) => b.textContent === 'Add it').length;
    expect(addButtons()).toBe(50);
    expect(screen.getByText('note-0 · p').getAttribute('title')).toBe('projects/-p/memory/note-0.md');
    await userEvent.click(more);
    expect(addButtons()).toBe(120);
  });
});
