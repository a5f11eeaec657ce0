import { describe, expect, it } from 'vitest';
import { wikiLinkName, withWikiLinks } from '../../renderer/src/features/vault/wiki-links';

describe('[[links]] in a memory preview', () => {
  it('turns each form into a link named by the part before | or #, escaping what it shows', () => {
    const out = withWikiLinks('See [[prefers-tabs]], [[Release notes|the *notes*]] and [[deploy#Fridays]].');
    expect(out).toBe(
      'See [prefers-tabs](#memory-link=prefers-tabs), [the \\*notes\\*](#memory-link=Release%20notes) and [deploy#Fridays](#memory-link=deploy).',
    );
    const hrefs = [...out.matchAll(/\]\(([^)]+)\)/g)].map((m) => wikiLinkName(m[1]));
    expect(hrefs).toEqual(['prefers-tabs', 'Release notes', 'deploy']);
  });

  it('leaves fenced code, code spans and empty brackets as written', () => {
    const text = ['```', '[[inside-fence]]', '```', 'A `[[span]]` and [[ ]] and [[real]].'].join('\n');
    expect(withWikiLinks(text)).toBe(['```', '[[inside-fence]]', '```', 'A `[[span]]` and [[ ]] and [real](#memory-link=real).'].join('\n'));
  });

  it('reads no memory name from an ordinary or malformed link', () => {
    expect(wikiLinkName('https://example.com')).toBeNull();
    expect(wikiLinkName(undefined)).toBeNull();
    expect(wikiLinkName('#memory-link=%E0%A4%A')).toBeNull();
  });
});
