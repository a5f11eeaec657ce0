import { describe, expect, it } from 'vitest';
import { dayOf, freshnessOf, memoryDates, parseMemoryFile, withMemoryDate } from '../../../common/memory-file/index.js';

const flat = '---\nname: Office\ndescription: where the team sits\ntype: project\nvalidUntil: 2026-03-31\n---\nFloor 3 until March.\n';
const nested = '---\nname: office\ndescription: where the team sits\nmetadata:\n  node_type: memory\n  type: project\n  reviewOn: 2026-06-01\n---\nFloor 3.\n';

describe('a memory’s validUntil and reviewOn', () => {
  it('reads them at the top level (2.1.88 shape) and under metadata (newest shape)', () => {
    expect(memoryDates(parseMemoryFile(flat).data)).toEqual({ validUntil: '2026-03-31', reviewOn: null });
    expect(memoryDates(parseMemoryFile(nested).data)).toEqual({ validUntil: null, reviewOn: '2026-06-01' });
  });

  it('takes the day of an ISO time and refuses what is not a calendar day', () => {
    expect(dayOf('2026-02-03T10:00:00Z')).toBe('2026-02-03');
    expect(dayOf(new Date(Date.UTC(2026, 1, 3)))).toBe('2026-02-03');
    expect(dayOf('2026-02-30')).toBeNull();
    expect(dayOf('next spring')).toBeNull();
    expect(dayOf(20260203)).toBeNull();
  });

  it('is expired the day after validUntil and due for review on reviewOn', () => {
    expect(freshnessOf({ validUntil: '2026-03-31', reviewOn: null }, '2026-03-31')).toBeNull();
    expect(freshnessOf({ validUntil: '2026-03-31', reviewOn: null }, '2026-04-01')).toBe('expired');
    expect(freshnessOf({ validUntil: null, reviewOn: '2026-06-01' }, '2026-06-01')).toBe('review-due');
    expect(freshnessOf({ validUntil: '2026-01-01', reviewOn: '2025-06-01' }, '2026-02-01')).toBe('expired');
  });

  it('renews a date in place, adds one where the shape keeps its keys, and removes one, leaving the rest as written', () => {
    expect(withMemoryDate(flat, 'validUntil', '2026-09-30')).toBe(flat.replace('2026-03-31', '2026-09-30'));
    expect(withMemoryDate(flat, 'reviewOn', '2026-05-01')).toBe(flat.replace('validUntil: 2026-03-31\n', 'validUntil: 2026-03-31\nreviewOn: 2026-05-01\n'));
    expect(withMemoryDate(nested, 'validUntil', '2027-01-01')).toBe(nested.replace('  reviewOn: 2026-06-01\n', '  reviewOn: 2026-06-01\n  validUntil: 2027-01-01\n'));
    expect(withMemoryDate(nested, 'reviewOn', null)).toBe(nested.replace('  reviewOn: 2026-06-01\n', ''));
    const crlf = flat.replace(/\n/g, '\r\n');
    expect(withMemoryDate(crlf, 'validUntil', '2026-09-30')).toBe(crlf.replace('2026-03-31', '2026-09-30'));
  });

  it('changes nothing in a file without readable frontmatter, and refuses a date that is not a day', () => {
    expect(withMemoryDate('Just a note.\n', 'validUntil', '2026-09-30')).toBeNull();
    expect(() => withMemoryDate(flat, 'validUntil', '30/09/2026')).toThrow(/YYYY-MM-DD/);
  });
});
