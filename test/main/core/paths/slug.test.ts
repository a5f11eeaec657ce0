import { describe, expect, it } from 'vitest';
import { fnv1a32, slug } from '../../../../main/core/paths/slug.js';

/** An independent FNV-1a (32-bit) over UTF-8 bytes, written with BigInt so it shares no code with the source. */
function referenceFnv1a(text: string): number {
  let hash = 0x811c9dc5n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x01000193n) % 0x100000000n;
  }
  return Number(hash);
}

const longPath = `/home/user/${Array.from({ length: 10 }, (_, i) => `deeply-nested-folder-${String(i).padStart(2, '0')}`).join('/')}`;

describe('slug (SPEC §0)', () => {
  it('matches the published FNV-1a 32-bit values', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('agrees with an independent FNV-1a over UTF-8 bytes, including non-ASCII text', () => {
    for (const text of ['/x', longPath, '/Users/zoë/café', '/tmp/日本語/😀']) {
      expect(fnv1a32(text)).toBe(referenceFnv1a(text));
    }
  });

  it('turns every character outside [A-Za-z0-9] into a dash for a short path', () => {
    expect(slug('/home/u/projects/strata')).toBe('-home-u-projects-strata');
    expect(slug('/Users/me/My Project.v2')).toBe('-Users-me-My-Project-v2');
    expect(slug('C:\\Users\\me\\app')).toBe('C--Users-me-app');
  });

  it('normalizes to NFC first, so composed and decomposed spellings give one slug', () => {
    const composed = '/Users/zo\u00eb/caf\u00e9';
    const decomposed = '/Users/zoe\u0308/cafe\u0301';
    expect(slug(composed)).toBe('-Users-zo--caf-');
    expect(slug(decomposed)).toBe(slug(composed));
  });

  it('keeps a path of exactly 200 slug characters unchanged', () => {
    const p = `/${'a'.repeat(199)}`;
    expect(slug(p)).toBe(`-${'a'.repeat(199)}`);
  });

  it('cuts a slug over 200 characters and appends the base-36 FNV-1a of the whole path', () => {
    expect(longPath.length).toBe(250);
    const expected = `${longPath.replace(/[^A-Za-z0-9]/g, '-').slice(0, 200)}-${referenceFnv1a(longPath).toString(36)}`;
    expect(slug(longPath)).toBe(expected);
    expect(slug(longPath)).toBe(
      '-home-user-deeply-nested-folder-00-deeply-nested-folder-01-deeply-nested-folder-02-deeply-nested-folder-03-deeply-nested-folder-04-deeply-nested-folder-05-deeply-nested-folder-06-deeply-nested-folder--gfo4vi',
    );
  });

  it('hashes the NFC form of a long unicode path', () => {
    const long = `/Users/zoe\u0308/${'x'.repeat(220)}`;
    const nfc = long.normalize('NFC');
    expect(slug(long)).toBe(`${nfc.replace(/[^A-Za-z0-9]/g, '-').slice(0, 200)}-${referenceFnv1a(nfc).toString(36)}`);
  });
});
