import { describe, expect, it } from 'vitest';
import { cleanInstructionText, findIncludes, stripFrontmatter, stripHtmlComments } from '../../../../main/core/context/markdown-text.js';

describe('instruction text cleaning', () => {
  it('strips a leading YAML frontmatter block and leaves an unclosed one', () => {
    expect(stripFrontmatter('---\npaths: src/**\n---\n# Rules\n')).toBe('# Rules\n');
    expect(stripFrontmatter('---\nnot closed\n# Rules')).toBe('---\nnot closed\n# Rules');
    expect(stripFrontmatter('# Title\n---\nx: 1\n---\n')).toBe('# Title\n---\nx: 1\n---\n');
  });

  it('strips block-level HTML comments only, as Claude Code does: inline ones, code and unclosed ones stay', () => {
    const text = ['a', '<!-- note', 'for maintainers -->', 'b <!-- inline --> c', 'd `<!-- span -->` e', '```', '<!-- kept in code -->', '```', '<!-- unclosed'].join('\n');
    expect(stripHtmlComments(text)).toBe(['a', 'b <!-- inline --> c', 'd `<!-- span -->` e', '```', '<!-- kept in code -->', '```', '<!-- unclosed'].join('\n'));
  });

  it('does not follow an include inside an inline comment that stays in the text', () => {
    expect(findIncludes('Read this <!-- not @./hidden.md --> and @./shown.md')).toEqual(['./shown.md']);
  });

  it('keeps the text left on the lines of a comment block, and a comment indented four spaces (code)', () => {
    expect(stripHtmlComments('<!-- note --> Use bun\n   <!-- three -->\n    <!-- four -->')).toBe(' Use bun\n    <!-- four -->');
  });

  it('never lets one comment swallow the text between two comments', () => {
    expect(stripHtmlComments('<!-- a --> keep\n<!-- b -->\nend')).toBe(' keep\nend');
  });

  it('cleans CRLF text, frontmatter and comments, and trims', () => {
    expect(cleanInstructionText('---\r\nname: x\r\n---\r\n\r\nUse tabs.\r\n<!-- why -->\r\n')).toBe('Use tabs.');
  });
});

describe('findIncludes', () => {
  it('finds @paths of every accepted form, in order, once each', () => {
    const text = 'See @./a.md and @docs/b.md.\n@~/notes/c.md\n@/etc/d.md @../e.md @./a.md';
    expect(findIncludes(text)).toEqual(['./a.md', 'docs/b.md.', '~/notes/c.md', '/etc/d.md', '../e.md']);
  });

  it('ignores email addresses, a bare slash, a bare tilde and other forms', () => {
    expect(findIncludes('mail me@example.com or @/ or @~ or @#x or @@y or @!z')).toEqual([]);
  });

  it('strips #fragments and unescapes escaped spaces', () => {
    expect(findIncludes('@./guide.md#setup and @./my\\ file.md')).toEqual(['./guide.md', './my file.md']);
  });

  it('ignores includes inside fenced code blocks and inline code spans', () => {
    const text = ['`@./span.md` and ``@./double.md``', '```sh', '@./fenced.md', '```', '~~~', '@./tilde.md', '~~~', '@./real.md'].join('\n');
    expect(findIncludes(text)).toEqual(['./real.md']);
  });
});
