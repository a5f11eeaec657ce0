import { describe, expect, it } from 'vitest';
import type { InstructionFile } from '../../../../main/core/context/claude-md-loader.js';
import { buildReminderBlock } from '../../../../main/core/context/reminder-block.js';

const file = (path: string, kind: InstructionFile['kind'], content: string): InstructionFile => ({
  path,
  kind,
  content,
  chars: content.length,
  large: false,
  depth: 0,
  includedFrom: null,
});

describe('buildReminderBlock (docs/memory.md#instructions)', () => {
  it('puts CLAUDE.md files, the auto index, the team index, the session notes and the date in that order', () => {
    const text = buildReminderBlock({
      instructions: [file('/v/CLAUDE.md', 'user', 'Be brief.'), file('/p/CLAUDE.md', 'project', 'Use pnpm.'), file('/p/CLAUDE.local.md', 'local', 'My box.')],
      autoMemoryIndex: { path: '/v/projects/-p/memory/MEMORY.md', content: '- [Role](role.md) — backend dev\n' },
      teamMemoryIndex: { path: '/v/projects/-p/memory/team/MEMORY.md', content: '- [CI](ci.md) — flaky job' },
      sessionNotes: { path: '/v/projects/-p/s1/session-memory/summary.md', content: '# Session Title\nLogin fix' },
      today: '2026-12-02',
    });
    expect(text.startsWith('<system-reminder>\n')).toBe(true);
    expect(text.endsWith('\n</system-reminder>')).toBe(true);
    const order = [
      '# claudeMd',
      "Contents of /v/CLAUDE.md (user's private global instructions for all projects):\n\nBe brief.",
      'Contents of /p/CLAUDE.md (project instructions, checked into the codebase):\n\nUse pnpm.',
      "Contents of /p/CLAUDE.local.md (user's private project instructions, not checked in):\n\nMy box.",
      "Contents of /v/projects/-p/memory/MEMORY.md (user's auto-memory, persists across conversations):\n\n- [Role](role.md) — backend dev",
      'Contents of /v/projects/-p/memory/team/MEMORY.md (shared team memory, synced with teammates):\n\n<team-memory-content source="shared">\n- [CI](ci.md) — flaky job\n</team-memory-content>',
      '# sessionNotes',
      '# Session Title\nLogin fix',
      "# currentDate\nToday's date is 2026-12-02.",
    ];
    const positions = order.map((part) => text.indexOf(part));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('leaves out empty parts and still gives the date', () => {
    const text = buildReminderBlock({ instructions: [], autoMemoryIndex: { path: '/m/MEMORY.md', content: '  \n' }, today: '2026-01-31' });
    expect(text).not.toContain('# claudeMd');
    expect(text).not.toContain('MEMORY.md');
    expect(text).not.toContain('# sessionNotes');
    expect(text).toContain("Today's date is 2026-01-31.");
  });

  it('formats a Date by the local calendar', () => {
    const text = buildReminderBlock({ instructions: [], today: new Date(2026, 1, 3, 23, 59) });
    expect(text).toContain("Today's date is 2026-02-03.");
  });
});
