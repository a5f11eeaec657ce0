import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseMemoryFile, renderMemoryFile, splitFrontmatter, yamlScalar } from '../../../common/memory-file/index.js';

const awkward = [
  'Indentation preference: tabs, not spaces',
  '@mentions are for humans',
  'Cite the ticket #1 first',
  '- looks like a list',
  'yes',
  '2024',
  ' leading and trailing ',
  'quotes "inside" and \'single\'',
  'a\nsecond line',
  '{not: a map}',
  '---',
  '',
];

describe('writing memory frontmatter', () => {
  it.each(awkward)('writes %j so strict YAML reads it back unchanged (one line)', (value) => {
    const scalar = yamlScalar(value);
    expect(parseYaml(`k: ${scalar}`, { logLevel: 'error' }).k).toBe(value.replace(/\s*\n\s*/g, ' '));
  });

  it('leaves plain words unquoted, as Claude Code writes them', () => {
    expect(yamlScalar('The user indents with tabs')).toBe('The user indents with tabs');
    expect(yamlScalar('a: b')).toBe('"a: b"');
  });

  it.each(['2.1.88', 'metadata'] as const)('renders the %s shape that strict YAML and every reader agree on', (shape) => {
    for (const description of awkward.filter(Boolean)) {
      const text = renderMemoryFile({ name: 'Tabs: always', description, type: 'feedback', originSessionId: 'sess-1' }, '\n\nBody.\n', shape);
      const block = splitFrontmatter(text)!;
      const strict = parseYaml(block.yaml, { logLevel: 'error' });
      expect(shape === 'metadata' ? strict.metadata.type : strict.type).toBe('feedback');
      const parsed = parseMemoryFile(text);
      expect(parsed).toMatchObject({ name: shape === 'metadata' ? 'tabs-always' : 'Tabs: always', type: 'feedback', shape, originSessionId: 'sess-1', body: '\nBody.\n' });
      expect(text).not.toMatch(/^---\n[\s\S]*---[\s\S]*\n---\n/);
      expect(parsed.description).toBe(description.replace(/\s*\n\s*/g, ' ').trim());
    }
  });
});
