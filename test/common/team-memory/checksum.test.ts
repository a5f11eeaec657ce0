import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { entryChecksum, formatEtag, parseEtagList, repositoryChecksum, strongMatch, utf8Length, weakMatch } from '../../../common/team-memory/index.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('team memory checksums', () => {
  it('hashes an entry as sha256 of its exact UTF-8 bytes', () => {
    expect(entryChecksum('hello', sha256)).toBe('sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(entryChecksum('', sha256)).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(utf8Length('é✓')).toBe(5);
  });

  it('hashes a repository over its sorted key\\0checksum\\n lines, whatever the input order', () => {
    const a = entryChecksum('A', sha256);
    const b = entryChecksum('B', sha256);
    const expected = `sha256:${createHash('sha256').update(`a.md\0${a}\nb/c.md\0${b}\n`).digest('hex')}`;
    expect(repositoryChecksum([['b/c.md', b], ['a.md', a]], sha256)).toBe(expected);
    expect(repositoryChecksum(new Map([['a.md', a], ['b/c.md', b]]), sha256)).toBe(expected);
  });

  it('sorts keys by code unit, not locale', () => {
    const x = entryChecksum('x', sha256);
    const lines = `B.md\0${x}\na.md\0${x}\né.md\0${x}\n`;
    expect(repositoryChecksum([['é.md', x], ['a.md', x], ['B.md', x]], sha256)).toBe(`sha256:${createHash('sha256').update(lines).digest('hex')}`);
  });
});

describe('ETags (RFC 9110 §8.8.3, §13.1)', () => {
  it('formats a strong quoted tag and parses lists, weak tags and *', () => {
    expect(formatEtag('sha256:ab')).toBe('"sha256:ab"');
    expect(parseEtagList(undefined)).toBeNull();
    expect(parseEtagList(' * ')).toBe('*');
    expect(parseEtagList('"a", W/"b"')).toEqual([{ weak: false, opaque: 'a' }, { weak: true, opaque: 'b' }]);
  });

  it('matches If-Match strongly and If-None-Match weakly', () => {
    expect(strongMatch(parseEtagList('"x"')!, 'x')).toBe(true);
    expect(strongMatch(parseEtagList('W/"x"')!, 'x')).toBe(false);
    expect(weakMatch(parseEtagList('W/"x"')!, 'x')).toBe(true);
    expect(weakMatch(parseEtagList('"y"')!, 'x')).toBe(false);
    expect(strongMatch('*', 'x')).toBe(true);
  });
});
