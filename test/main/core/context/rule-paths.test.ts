import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchesRulePaths, rulePaths } from '../../../../main/core/context/rule-paths.js';

describe('rulePaths (paths: frontmatter of a rules file)', () => {
  it('reads a list or a comma-separated string, keeping commas inside braces, and drops a trailing /**', () => {
    expect(rulePaths('---\npaths: src/**/*.ts, {a,b}/*.md\n---\nx')).toEqual(['src/**/*.ts', '{a,b}/*.md']);
    expect(rulePaths('---\npaths:\n  - docs/**\n  - "*.py, *.pyi"\n---\nx')).toEqual(['docs', '*.py', '*.pyi']);
  });

  it('means no condition for no frontmatter, no paths, all-** patterns or frontmatter that is not YAML', () => {
    expect(rulePaths('Just a rule.')).toBeNull();
    expect(rulePaths('---\nowner: me\n---\nx')).toBeNull();
    expect(rulePaths('---\npaths: "**"\n---\nx')).toBeNull();
    expect(rulePaths('---\npaths: [unclosed\n---\nx')).toBeNull();
  });
});

describe('matchesRulePaths (gitignore meaning, relative to the base folder)', () => {
  const base = path.join(path.sep, 'repo');
  const at = (rel: string) => path.join(base, rel);

  it('matches a slash-less pattern at any depth and a folder pattern for everything inside it', () => {
    expect(matchesRulePaths(['*.md'], base, at('docs/deep/guide.md'))).toBe(true);
    expect(matchesRulePaths(['src'], base, at('src/lib/a.ts'))).toBe(true);
    expect(matchesRulePaths(['src/**/*.ts'], base, at('src/a.ts'))).toBe(true);
    expect(matchesRulePaths(['src/**/*.ts'], base, at('lib/src/a.ts'))).toBe(false);
    expect(matchesRulePaths(['src/**/*.ts'], base, at('src/a.tsx'))).toBe(false);
  });

  it('never matches a file outside the base folder or the base itself', () => {
    expect(matchesRulePaths(['*.md'], base, path.join(path.sep, 'other', 'a.md'))).toBe(false);
    expect(matchesRulePaths(['**'], base, base)).toBe(false);
  });
});
