import { describe, expect, it } from 'vitest';
import { isValidRepo, KeySpace, validateTeamMemoryKey } from '../../../common/team-memory/index.js';

describe('validateTeamMemoryKey', () => {
  it('accepts relative paths with / separators, including non-ASCII names and a literal %', () => {
    for (const key of ['MEMORY.md', 'notes/deploy.md', 'a/b/c/d.md', 'résumé.md', 'emoji-\u{1F600}.md', '100%.md', 'a%20b.md', '.hidden.md', 'a..b.md'.replace('..', '.')]) {
      expect(validateTeamMemoryKey(key), key).toEqual({ ok: true });
    }
  });

  it.each([
    ['..', 'a .. path segment'],
    ['../x.md', '..'],
    ['a/../b.md', '..'],
    ['a\\b.md', 'backslash'],
    ['/etc/passwd', 'starts with /'],
    ['a\0b', 'NUL'],
    ['%2e%2e/x.md', 'URL-decoded'],
    ['%2E%2E%2Fx', 'URL-decoded'],
    ['%252e%252e/x', 'URL-decoded'],
    ['%5c', 'backslash'],
    ['%00', 'NUL'],
    ['%2Fetc', 'URL-decoded'],
    ['a%2Fb.md', 'another /'],
    ['．．/x.md', 'NFKC'],
    ['a／．．／b', 'NFKC'],
    ['／etc', 'NFKC'],
    ['＼x', 'NFKC'],
    ['％2e％2e/x', 'URL-decoded'],
    ['', 'empty'],
    ['a//b.md', 'empty'],
    ['./a.md', '. path segment'],
    ['dir/', 'ends with /'],
    ['__proto__', '__proto__'],
    ['x\ud800.md', 'lone surrogate'],
    ['%25252525252e%25252525252e/x', 'URL-decoded'],
    [`%${'25'.repeat(70)}2e`, 'encoded too many times'],
    ['%2E%2E%2F%ZZx.md', 'URL-decoded form contains a .. path segment'],
    ['ok%ZZ/%2e%2e/x.md', 'URL-decoded'],
    [`${'é'.repeat(128)}.md`, 'longer than 255 bytes'],
    [`${'a/'.repeat(257)}x.md`, 'longer than 512 bytes'],
    ['user_role\n.md', 'contains a line feed (U+000A)'],
    ['notes/a\rb.md', 'contains a carriage return (U+000D)'],
    ['\u001b[2Jclear.md', 'contains an escape character (U+001B)'],
    ['tab\there.md', 'contains a tab (U+0009)'],
    ['del\u007f.md', 'contains a control character (U+007F)'],
    ['c1\u0085.md', 'contains a control character (U+0085)'],
    ['line\u2028sep.md', 'contains a line separator (U+2028)'],
    ['gpj\u202Eexe.md', 'contains a text-direction control (U+202E)'],
    ['a%0Ab.md', 'URL-decoded form contains a line feed'],
    ['a%1Bb.md', 'URL-decoded form contains an escape character'],
  ])('refuses %j and says why', (key, reason) => {
    const check = validateTeamMemoryKey(key);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toContain(reason);
  });

  it('accepts a name of exactly 255 bytes, the most a file system takes', () => {
    expect(validateTeamMemoryKey(`${'a'.repeat(252)}.md`)).toEqual({ ok: true });
  });

  it('refuses over-long keys without heavy work', () => {
    expect(validateTeamMemoryKey('a'.repeat(5000)).ok).toBe(false);
  });
});

describe('KeySpace', () => {
  it('finds keys that one case-insensitive, normalizing file system would make one file or a file and a folder', () => {
    const space = new KeySpace(['Notes/a.md', 'x.md', 'caf\u00e9.md']);
    expect(space.problem('Notes/b.md')).toBeNull();
    expect(space.problem('x.md')).toBeNull();
    expect(space.problem('X.md')).toMatch(/only in case/);
    expect(space.problem('cafe\u0301.md')).toMatch(/only in case or Unicode form/);
    expect(space.problem('x.md/y.md')).toMatch(/is the existing file "x.md"/);
    expect(space.problem('notes')).toMatch(/folder "Notes" of other keys/);
    expect(space.problem('NOTES/c.md')).toMatch(/differs from the existing folder "Notes"/);
    space.delete('Notes/a.md');
    expect(space.problem('notes')).toBeNull();
    expect(space.problem('NOTES/c.md')).toBeNull();
  });
});

describe('isValidRepo', () => {
  it('accepts owner/name and refuses anything else', () => {
    expect(isValidRepo('acme/web-app.v2_x')).toBe(true);
    for (const repo of ['acme', 'a/b/c', '../x', 'a/..', './b', 'a b/c', 'a/b%2F', '']) expect(isValidRepo(repo), repo).toBe(false);
  });
});
