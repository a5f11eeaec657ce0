import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryUsage } from '../../common/domain/memory-use';
import type { HealthReport, VaultFileMeta } from '../../common/domain/vault';
import { createFakeApi, startFakeMain } from './support/fake-api';

afterEach(cleanup);

const DAY = 86_400_000;
const MEM = 'projects/-p/memory';
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const meta = (name: string, changedDaysAgo: number): VaultFileMeta => ({
  path: `${MEM}/${name}.md`,
  scope: 'project-memory',
  projectSlug: '-p',
  title: name,
  description: null,
  type: 'project',
  size: 10,
  mtime: ago(changedDaysAgo),
  error: null,
  binary: false,
  tooLarge: false,
});
const empty: HealthReport = { totalTokens: 0, files: [], indexes: [], stale: [], duplicates: [], largeInstructions: [], problems: [], brokenPointers: [], missingFromIndex: [] };

async function mount(usage: MemoryUsage) {
  const fake = createFakeApi({ 'vault:health': () => empty, 'memory:usage': () => usage });
  startFakeMain(fake.api);
  const { useStore } = await import('../../renderer/src/store');
  const { HealthPanel } = await import('../../renderer/src/features/vault/health-panel');
  useStore.getState().setFiles([meta('used', 60), meta('forgotten', 60), meta('new', 5), { ...meta('MEMORY', 60), path: `${MEM}/MEMORY.md` }]);
  render(<HealthPanel />);
}

describe('Health’s never-used memories (docs/memory.md#provenance-and-use)', () => {
  it('lists the memories recall never attached through 30 days of counting, not the newer ones or the index', async () => {
    await mount({ since: ago(40), files: { [`${MEM}/used.md`]: { count: 3, lastUsed: ago(2), recent: [] } } });
    const section = await screen.findByRole('region', { name: 'Never used in an answer' });
    expect([...section.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['forgotten · p']);
  });

  it('says nothing until Strata has counted for 30 days', async () => {
    await mount({ since: ago(10), files: {} });
    await screen.findByText(/tokens of memory and instructions/);
    expect(screen.queryByRole('region', { name: 'Never used in an answer' })).toBeNull();
  });
});
