import { describe, expect, it } from 'vitest';
import { isoDate, parsePastedMemories as parseWith, splitDate } from '../../../../main/core/portability/paste-parser.js';
import { scanText } from '../../../../main/core/secrets/index.js';

const NOW = Date.UTC(2026, 11, 4, 15);
const parsePastedMemories = (text: string, source: 'chatgpt' | 'claude' | 'other', now: number) => parseWith(text, source, now, (t) => scanText(t, { spans: true }));

/** What ChatGPT answers to "list every memory with the date saved, as [date] - memory". */
const chatgptDated = `Here's everything I have stored in memory about you:

1. [2024-05-12] - Is a product designer at Figma, working on the prototyping team.
2. [2024-08-03] - Prefers concise answers with code examples instead of long explanations.
3. [unknown date] - Has a dog named Biscuit.
4. [2025-01-20] - Is building a budgeting app called Penny; launch planned for March 2025.
5. [2025-02-11] - Design system docs live at https://design.example.com/tokens

Let me know if you'd like me to update or forget any of these.`;

/** What Claude answers: headings, bullets, a paragraph, dates written out. */
const claudeSections = `**Work context**
- Works as a data engineer at Northwind (saved March 3, 2025)
- Working on migrating the warehouse from Redshift to BigQuery
  - Deadline is end of Q2

**Personal**
Lives in Lisbon with partner Sam. Learning Portuguese on Tuesday evenings.

**Preferences**
- Wants you to use British spelling — 12 April 2025
- Never use emojis in replies`;

describe('parsePastedMemories', () => {
  it('reads a numbered ChatGPT list with bracketed dates into typed items with provenance, and skips the chatter', () => {
    const preview = parsePastedMemories(chatgptDated, 'chatgpt', NOW);
    expect(preview.items.map((i) => i.type)).toEqual(['user', 'feedback', 'user', 'project', 'reference']);
    const [designer, concise, dog] = preview.items;
    expect(designer!.name).toBe('A product designer at Figma');
    expect(designer!.fileName).toBe('user_a_product_designer_at_figma.md');
    expect(designer!.description).toBe('Is a product designer at Figma, working on the prototyping team.');
    expect(designer!.body).toBe('Is a product designer at Figma, working on the prototyping team.\n\nImported from ChatGPT on 2026-12-04 (saved there on 2024-05-12).');
    expect(concise!.fileName).toBe('feedback_prefers_concise_answers_with_code_examples.md');
    expect(dog!.body).toBe('Has a dog named Biscuit.\n\nImported from ChatGPT on 2026-12-04.');
    expect(preview.skipped.map((s) => s.why)).toEqual(['introduction, not a memory', 'closing remark, not a memory']);
  });

  it('reads Claude-style sections: sub-bullets join their item, a paragraph is one item, headings type and describe it', () => {
    const preview = parsePastedMemories(claudeSections, 'claude', NOW);
    expect(preview.items).toHaveLength(5);
    const [job, migration, home, spelling, emojis] = preview.items;
    expect(job!.body).toContain('Imported from Claude on 2026-12-04 (saved there on 2025-03-03).');
    expect(job!.description).toBe('Work context: Works as a data engineer at Northwind');
    expect(job!.type).toBe('user');
    expect(migration!.type).toBe('project');
    expect(migration!.body.split('\n')[0]).toBe('Working on migrating the warehouse from Redshift to BigQuery; Deadline is end of Q2.');
    expect(home!.type).toBe('user');
    expect(home!.body.split('\n')[0]).toBe('Lives in Lisbon with partner Sam. Learning Portuguese on Tuesday evenings.');
    expect(spelling!.type).toBe('feedback');
    expect(spelling!.body).toContain('(saved there on 2025-04-12)');
    expect(emojis!.type).toBe('feedback');
    expect(new Set(preview.items.map((i) => i.fileName)).size).toBe(5);
  });

  it('reads plain bullets and undated paragraphs, and gives clashing names a suffix', () => {
    const preview = parsePastedMemories('• Likes hiking\n• Likes hiking\n\nHas two kids.\nThe older one is 7.', 'other', NOW);
    expect(preview.items.map((i) => i.fileName)).toEqual(['user_likes_hiking.md', 'user_likes_hiking_2.md', 'user_has_two_kids.md']);
    expect(preview.items[2]!.body).toMatch(/^Has two kids\. The older one is 7\.\n\nImported from another assistant on 2026-12-04\.$/);
  });

  it('makes each line that opens with its date one memory, as Strata asks the other assistant to answer', () => {
    const answer = '[2024-05-12] - Works as a nurse in Porto.\n[2024-08-03] - Is preparing for a marathon in October.\n2024-09-01: Has a dog named Biscuit.\n(March 3, 2025) Lives in Lisbon';
    const preview = parsePastedMemories(answer, 'chatgpt', NOW);
    expect(preview.items.map((i) => [i.name, i.body.split('\n')[0], /saved there on ([\d-]+)/.exec(i.body)?.[1]])).toEqual([
      ['Works as a nurse in Porto', 'Works as a nurse in Porto.', '2024-05-12'],
      ['Preparing for a marathon in October', 'Is preparing for a marathon in October.', '2024-08-03'],
      ['Has a dog named Biscuit', 'Has a dog named Biscuit.', '2024-09-01'],
      ['Lives in Lisbon', 'Lives in Lisbon.', '2025-03-03'],
    ]);
  });

  it('refuses an oversized paste with a clear message', () => {
    expect(() => parsePastedMemories('x'.repeat(200_001), 'chatgpt', NOW)).toThrow(/over 200,000 characters/);
  });
});

describe('dates', () => {
  it('normalises the common written forms and rejects impossible dates', () => {
    expect(isoDate('2024-05-12')).toBe('2024-05-12');
    expect(isoDate('May 12, 2024')).toBe('2024-05-12');
    expect(isoDate('Sept 3rd, 2024')).toBe('2024-09-03');
    expect(isoDate('12 May 2024')).toBe('2024-05-12');
    expect(isoDate('05/12/2024')).toBe('2024-05-12');
    expect(isoDate('2024-02-30')).toBeNull();
  });

  it('splits a leading or trailing date off the text, leaving dates inside the sentence alone', () => {
    expect(splitDate('2024-05-12: Moved to Osaka')).toEqual({ text: 'Moved to Osaka', savedOn: '2024-05-12' });
    expect(splitDate('Moved to Osaka (saved on Jan 5, 2025)')).toEqual({ text: 'Moved to Osaka', savedOn: '2025-01-05' });
    expect(splitDate('Wedding is on June 7, 2026 in Porto')).toEqual({ text: 'Wedding is on June 7, 2026 in Porto', savedOn: null });
  });
});
