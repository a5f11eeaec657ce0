import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../common/domain/vault';
import { runSearch } from '../../renderer/src/bridge/vault-actions';
import { useStore } from '../../renderer/src/store';
import { createFakeApi, startFakeMain } from './support/fake-api';

const hit = (title: string): SearchHit => ({ path: `projects/p/memory/${title}.md`, scope: 'project-memory', type: 'user', title, line: 1, snippet: title, ranges: [], score: 1 });

describe('vault search as the user types', () => {
  it('keeps the results of the last query when an earlier one is answered after it', async () => {
    const answers = new Map<string, (hits: SearchHit[]) => void>();
    const fake = createFakeApi({ 'vault:search': ({ query }) => new Promise<SearchHit[]>((resolve) => answers.set(query, resolve)) });
    startFakeMain(fake.api);
    const filters = { scope: null, type: null };
    const first = runSearch('ga', filters);
    const second = runSearch('garden', filters);
    answers.get('garden')!([hit('garden')]);
    await second;
    answers.get('ga')!([hit('gateway'), hit('garden')]);
    await first;
    expect(useStore.getState().searchQuery).toBe('garden');
    expect(useStore.getState().searchHits.map((h) => h.title)).toEqual(['garden']);
  });
});
