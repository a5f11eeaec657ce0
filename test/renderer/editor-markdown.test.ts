import { describe, expect, it } from 'vitest';
import { EditorState } from '@codemirror/state';
import { ensureSyntaxTree } from '@codemirror/language';
import { markdownEditing } from '../../renderer/src/features/vault/editor-markdown';

/** The node names of a fully parsed document, in order. */
function nodes(doc: string): string[] {
  const state = EditorState.create({ doc, extensions: [markdownEditing()] });
  const names: string[] = [];
  ensureSyntaxTree(state, doc.length, 5000)!.iterate({ enter: (n) => void names.push(n.name) });
  return names;
}

describe('the vault editor’s markdown', () => {
  it('reads the frontmatter of a memory as one block, not a rule and a setext heading', () => {
    const names = nodes('---\nname: User role\ndescription: Senior data scientist\ntype: user\n---\n\nThe user is a data scientist.\n');
    expect(names).toContain('Frontmatter');
    expect(names).not.toContain('SetextHeading2');
    expect(names).not.toContain('HorizontalRule');
    expect(names).toContain('Paragraph');
  });

  it('keeps a rule in the body a rule', () => {
    const names = nodes('# Notes\n\nabove\n\n---\n\nbelow\n');
    expect(names).not.toContain('Frontmatter');
    expect(names).toContain('HorizontalRule');
  });
});
