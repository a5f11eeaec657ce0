import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseMemoryFile, renderMemoryFile, splitFrontmatter, stampMemoryWrite, withHeadFields, withMemoryHead } from '../../../common/memory-file/index.js';

const SESSION = '894ebb62-e08a-4678-883e-7b06e2e17969';
const NOW = '2026-12-05T00:45:35.013Z';
const yamlOf = (text: string) => parseYaml(splitFrontmatter(text)!.yaml) as Record<string, unknown>;
const stamp = (text: string, shape: '2.1.88' | 'metadata' = 'metadata', isNew = true) => stampMemoryWrite(text, { sessionId: SESSION, shape, modified: NOW, isNew });

// The inputs and outputs below are what Claude Code 2.1.332 wrote to disk for the same Write (checked live by
// test/conformance/memory-shape.test.ts; kept here so the rule is pinned without the 400 MB program).
describe('a memory the agent writes, in the metadata shape (as the newest Claude Code stamps it)', () => {
  it('puts a memory without originSessionId in the new shape: kebab name, type under metadata, session and time', () => {
    expect(stamp('---\nname: Old shape\ndescription: an old-shape memory\ntype: reference\n---\n\nThe database is blue.\n')).toBe(
      `---\nname: old-shape\ndescription: an old-shape memory\nmetadata:\n  node_type: memory\n  type: reference\n  originSessionId: ${SESSION}\n  modified: ${NOW}\n---\n\nThe database is blue.\n`,
    );
    expect(stamp('---\nname: launch-day\ndescription: when the launch is\nmetadata:\n  type: project\n---\n\nSee [[release-owner]].\n')).toBe(
      `---\nname: launch-day\ndescription: when the launch is\nmetadata:\n  node_type: memory\n  type: project\n  originSessionId: ${SESSION}\n  modified: ${NOW}\n---\n\nSee [[release-owner]].\n`,
    );
  });

  it('only dates a memory that already names its conversation, where that name is', () => {
    const underMetadata = '---\nname: d\ndescription: x\nmetadata:\n  type: user\n  originSessionId: 44444444-4444-4444-8444-444444444444\n---\n\nBody d.\n';
    expect(stamp(underMetadata, 'metadata', false)).toBe(underMetadata.replace('444444444444\n---', `444444444444\n  modified: ${NOW}\n---`));
    const redated = '---\nname: a-fact\ndescription: second\nmetadata:\n  type: project\n  originSessionId: 11111111-1111-4111-8111-111111111111\n  modified: 2020-01-01T00:00:00.000Z\n---\n\nBody.\n';
    expect(stamp(redated, 'metadata', false)).toBe(redated.replace('2020-01-01T00:00:00.000Z', NOW));
    const topLevel = '---\nname: B fact\ndescription: strata wrote\ntype: user\noriginSessionId: 22222222-2222-4222-8222-222222222222\n---\n\nBody b.\n';
    expect(stamp(topLevel, 'metadata', false)).toBe(topLevel.replace('222222222222\n---', `222222222222\nmodified: ${NOW}\n---`));
  });

  it('leaves text without readable frontmatter alone, and a metadata that is not a mapping', () => {
    expect(stamp('No frontmatter here.\n')).toBe('No frontmatter here.\n');
    const scalar = '---\nname: n\ndescription: d\ntype: user\nmetadata: kept as written\n---\nBody\n';
    expect(stamp(scalar)).toBe(scalar);
    expect(stamp('---\nname: [unclosed\n---\nBody\n')).toBe('---\nname: [unclosed\n---\nBody\n');
  });

  it('in the 2.1.88 shape records only the conversation, on a new memory, at the top level', () => {
    const old = '---\nname: Old shape\ndescription: d\ntype: reference\n---\n\nBody.\n';
    expect(stamp(old, '2.1.88', true)).toBe(old.replace('reference\n', `reference\noriginSessionId: ${SESSION}\n`));
    expect(stamp(old, '2.1.88', false)).toBe(old);
  });
});

describe('the memory form writes the shape chosen in Settings', () => {
  const oldShape = '---\nname: Prefers tabs\n# kept comment\ndescription: Tabs\ntype: feedback\nextra: kept\n---\n\nBody.\n';
  const newShape = `---\nname: prefers-tabs\ndescription: Tabs\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: ${SESSION}\n  modified: 2020-01-01T00:00:00.000Z\n---\n\nBody.\n`;

  it('metadata shape: no top-level type, the type under metadata, the edit dated, the rest kept', () => {
    const text = withMemoryHead(oldShape, { name: 'Prefers tabs', description: 'Tabs, always', type: 'user' }, 'metadata', NOW);
    expect(yamlOf(text)).toEqual({ name: 'Prefers tabs', description: 'Tabs, always', extra: 'kept', metadata: { node_type: 'memory', type: 'user', modified: NOW } });
    expect(text).toContain('# kept comment');
    expect(text.endsWith('---\n\nBody.\n')).toBe(true);
    expect(parseMemoryFile(text)).toMatchObject({ type: 'user', shape: 'metadata', description: 'Tabs, always' });
    const again = withMemoryHead(newShape, { name: 'prefers-tabs', description: 'Tabs', type: 'project' }, 'metadata', NOW);
    expect(yamlOf(again)).toEqual({ name: 'prefers-tabs', description: 'Tabs', metadata: { node_type: 'memory', type: 'project', originSessionId: SESSION, modified: NOW } });
  });

  it('2.1.88 shape: the type at the top, none left under metadata to contradict it, provenance kept', () => {
    const text = withMemoryHead(newShape, { name: 'prefers-tabs', description: 'Tabs', type: 'user' }, '2.1.88', NOW);
    expect(yamlOf(text)).toEqual({ name: 'prefers-tabs', description: 'Tabs', type: 'user', metadata: { node_type: 'memory', originSessionId: SESSION, modified: '2020-01-01T00:00:00.000Z' } });
    expect(parseMemoryFile(text)).toMatchObject({ type: 'user', shape: '2.1.88' });
    expect(yamlOf(withMemoryHead(oldShape, { name: 'n', description: 'd', type: 'project' }, '2.1.88', NOW))).toEqual({ name: 'n', description: 'd', type: 'project', extra: 'kept' });
  });

  it('keeps a metadata that is not a mapping, the type going to the top level instead', () => {
    const text = withMemoryHead('---\nname: n\ndescription: d\nmetadata: [a, b]\n---\nBody\n', { name: 'n', description: 'd', type: 'user' }, 'metadata', NOW);
    expect(yamlOf(text)).toEqual({ name: 'n', description: 'd', metadata: ['a', 'b'], type: 'user' });
  });

  it('gives a file without frontmatter one, body kept', () => {
    const text = withMemoryHead('Just a body.\n', { name: 'n', description: 'd', type: 'user' }, 'metadata', NOW);
    expect(parseMemoryFile(text)).toMatchObject({ name: 'n', description: 'd', type: 'user', shape: 'metadata', body: 'Just a body.\n' });
  });
});

describe('a new memory in the metadata shape', () => {
  it('carries modified after originSessionId, as the newest Claude Code writes it', () => {
    const text = renderMemoryFile({ name: 'Prefers tabs', description: 'Tabs', type: 'feedback', originSessionId: SESSION, modified: NOW }, 'Body.', 'metadata');
    expect(text).toBe(`---\nname: prefers-tabs\ndescription: Tabs\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: ${SESSION}\n  modified: ${NOW}\n---\n\nBody.\n`);
    expect(renderMemoryFile({ name: 'n', description: 'd', type: 'user', modified: NOW }, 'Body.', '2.1.88')).not.toContain('modified');
  });
});

describe('setting some of a memory\'s fields (the conflict resolver)', () => {
  it('sets the chosen fields, keeps the type where it was written, and every other key and the body', () => {
    const text = '---\nname: Tabs\ndescription: old # a comment\nmetadata:\n  node_type: memory\n  type: user\n  modified: x\n---\n\nBody.\n';
    const edited = withHeadFields(text, { description: 'How we indent', type: 'feedback' })!;
    expect(yamlOf(edited)).toEqual({ name: 'Tabs', description: 'How we indent', metadata: { node_type: 'memory', type: 'feedback', modified: 'x' } });
    expect(edited.endsWith('---\n\nBody.\n')).toBe(true);
    expect(yamlOf(withHeadFields('---\nname: a\ntype: user\n---\nB\n', { type: 'project', name: 'b: c' })!)).toEqual({ name: 'b: c', type: 'project' });
    expect(withHeadFields('No frontmatter.\n', { name: 'x' })).toBeNull();
  });
});
