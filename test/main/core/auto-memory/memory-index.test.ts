import { describe, expect, it } from 'vitest';
import { formatIndexLine, indexHeadroom, parseIndex, truncateIndex } from '../../../../main/core/auto-memory/memory-index.js';

const caps = { maxLines: 200, maxChars: 25_000 };

describe('parseIndex', () => {
  it('reads `- [Title](file.md) — hook` lines and flags pointers to missing files', () => {
    const text = '# Memory\n- [Tabs](feedback_tabs.md) — prefers tabs\n- [Gone](gone.md) — removed\nsome prose\n* [Role](./user_role.md): senior Go dev\n- [Site](https://example.com) — web link\n';
    const entries = parseIndex(text, (t) => t !== 'gone.md');
    expect(entries).toEqual([
      { line: 2, title: 'Tabs', target: 'feedback_tabs.md', hook: 'prefers tabs', broken: false },
      { line: 3, title: 'Gone', target: 'gone.md', hook: 'removed', broken: true },
      { line: 5, title: 'Role', target: 'user_role.md', hook: 'senior Go dev', broken: false },
    ]);
  });

  it('round-trips a line the store formats, including a target with spaces', () => {
    const line = formatIndexLine('My [odd] title', 'with space.md', 'hook\nsecond line');
    expect(line).toBe('- [My \\[odd\\] title](<with space.md>) — hook second line');
    expect(parseIndex(line, () => true)[0]).toMatchObject({ title: 'My [odd] title', target: 'with space.md', hook: 'hook second line' });
  });
});

describe('truncateIndex', () => {
  it('leaves an index within the caps unchanged (trimmed)', () => {
    const result = truncateIndex('\n- [A](a.md) — a\n\n', caps);
    expect(result).toMatchObject({ content: '- [A](a.md) — a', truncated: false, warning: null });
  });

  it('cuts at 200 lines and names the cut lines in a visible warning', () => {
    const raw = Array.from({ length: 250 }, (_, i) => `- [M${i + 1}](m${i + 1}.md) — hook`).join('\n');
    const result = truncateIndex(raw, caps);
    expect(result.truncated).toBe(true);
    expect(result.cutLines).toEqual({ from: 201, to: 250 });
    expect(result.content.split('\n').slice(0, 200).at(-1)).toBe('- [M200](m200.md) — hook');
    expect(result.content.slice(0, result.content.indexOf('> WARNING'))).not.toContain('m201.md');
    expect(result.warning).toMatch(/^> WARNING: MEMORY\.md is 250 lines \(limit: 200\)\./);
    expect(result.warning).toContain('lines 201–250 were cut, starting at "- [M201](m201.md) — hook"');
    expect(result.content.endsWith(result.warning!)).toBe(true);
  });

  it('cuts at 25,000 characters on a line boundary when lines are long', () => {
    const long = 'x'.repeat(280);
    const raw = Array.from({ length: 100 }, (_, i) => `- [M${i}](m${i}.md) — ${long}`).join('\n');
    const result = truncateIndex(raw, caps);
    const kept = result.content.slice(0, result.content.indexOf('\n\n> WARNING'));
    expect(kept.length).toBeLessThanOrEqual(25_000);
    expect(kept.endsWith(long)).toBe(true);
    expect(result.warning).toContain('characters (limit: 25,000) — index entries are too long');
    expect(result.cutLines!.to).toBe(100);
  });

  it('names both reasons when both caps are passed, and hard-cuts a single giant line', () => {
    const both = truncateIndex(Array.from({ length: 300 }, () => 'y'.repeat(200)).join('\n'), caps);
    expect(both.warning).toMatch(/300 lines \(limit: 200\) and .* characters/);
    const giant = truncateIndex('z'.repeat(30_000), caps);
    expect(giant.content.startsWith('z'.repeat(25_000) + '\n\n> WARNING')).toBe(true);
    expect(giant.cutLines).toEqual({ from: 1, to: 1 });
  });
});

describe('indexHeadroom', () => {
  it('reports lines, characters and estimated tokens against the caps', () => {
    const h = indexHeadroom('- [A](a.md) — a\n- [B](b.md) — b\n', caps);
    expect(h).toEqual({ lines: 2, maxLines: 200, chars: 31, maxChars: 25_000, tokens: 8, maxTokens: 6_250, fill: 0.01 });
  });
});
