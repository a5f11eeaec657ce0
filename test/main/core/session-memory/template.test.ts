import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTES_TEMPLATE,
  DEFAULT_UPDATE_PROMPT,
  isStillTemplate,
  loadCustomization,
  parseSections,
  substitute,
} from '../../../../main/core/session-memory/index.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('the default notes template', () => {
  it('has the ten sections of docs/memory.md#session-notes in order, each with one italic description line', () => {
    const { preamble, sections } = parseSections(DEFAULT_NOTES_TEMPLATE);
    expect(preamble).toBe('');
    expect(sections.map((s) => s.title)).toEqual([
      'Session Title',
      'Current State',
      'Task specification',
      'Files and Functions',
      'Workflow',
      'Errors & Corrections',
      'Codebase and System Documentation',
      'Learnings',
      'Key results',
      'Worklog',
    ]);
    for (const s of sections) {
      const lines = s.body.split('\n').filter((l) => l.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^_[^_].*[^_]_$/);
    }
  });

  it('has both placeholders in the default update prompt', () => {
    expect(DEFAULT_UPDATE_PROMPT).toContain('{{notesPath}}');
    expect(DEFAULT_UPDATE_PROMPT).toContain('{{currentNotes}}');
  });
});

describe('substitute', () => {
  it('inserts values literally, with no $ replacement patterns', () => {
    expect(substitute('a {{currentNotes}} b', { currentNotes: "$& $1 $$ $' $`" })).toBe("a $& $1 $$ $' $` b");
  });

  it('substitutes once: a value holding a placeholder is not substituted again', () => {
    const out = substitute('{{currentNotes}} at {{notesPath}}', { currentNotes: 'see {{notesPath}}', notesPath: '/n.md' });
    expect(out).toBe('see {{notesPath}} at /n.md');
  });

  it('leaves unknown placeholders as they are and fills every occurrence of a known one', () => {
    expect(substitute('{{other}} {{notesPath}} {{notesPath}} {{ notesPath }}', { notesPath: 'P' })).toBe('{{other}} P P {{ notesPath }}');
  });
});

describe('loadCustomization', () => {
  it('uses the defaults when the vault has no custom files', async () => {
    const vault = await tempDir();
    const c = await loadCustomization(vault);
    expect(c).toEqual({ template: DEFAULT_NOTES_TEMPLATE, prompt: DEFAULT_UPDATE_PROMPT, custom: { template: false, prompt: false } });
  });

  it('replaces each default by the file in session-memory/config/', async () => {
    const vault = await tempDir();
    await fs.mkdir(path.join(vault, 'session-memory', 'config'), { recursive: true });
    await fs.writeFile(path.join(vault, 'session-memory', 'config', 'template.md'), '# Mine\n_my description_\n');
    const c = await loadCustomization(vault);
    expect(c.template).toBe('# Mine\n_my description_\n');
    expect(c.prompt).toBe(DEFAULT_UPDATE_PROMPT);
    expect(c.custom).toEqual({ template: true, prompt: false });
  });
});

describe('isStillTemplate', () => {
  it('treats the template with different surrounding whitespace as still the template', () => {
    expect(isStillTemplate(`${DEFAULT_NOTES_TEMPLATE}\n\n  \n`, DEFAULT_NOTES_TEMPLATE)).toBe(true);
    expect(isStillTemplate(DEFAULT_NOTES_TEMPLATE.trimEnd(), DEFAULT_NOTES_TEMPLATE)).toBe(true);
  });

  it('treats any real content as notes', () => {
    expect(isStillTemplate(DEFAULT_NOTES_TEMPLATE.replace('# Worklog\n', '# Worklog\n- ran tests\n'), DEFAULT_NOTES_TEMPLATE)).toBe(false);
  });

  it('compares against the active template: the default is notes when a custom template is active', () => {
    const custom = '# Mine\n_my description_\n';
    expect(isStillTemplate(custom, custom)).toBe(true);
    expect(isStillTemplate(DEFAULT_NOTES_TEMPLATE, custom)).toBe(false);
  });

  it('treats an emptied file as holding no notes', () => {
    expect(isStillTemplate(' \n\n', DEFAULT_NOTES_TEMPLATE)).toBe(true);
  });
});
