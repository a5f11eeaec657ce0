import { describe, expect, it } from 'vitest';
import { analyze } from '../../../../main/core/search/analyzer.js';
import { TermIndex, type ScoreOptions } from '../../../../main/core/search/term-index.js';
import { randomEdits } from './random-edits.js';

const fields: ScoreOptions = { k1: 1.2, fields: { title: { weight: 3, b: 0.75 }, text: { weight: 1, b: 0.75 } } };
const q = (text: string) => analyze(text).map((term) => ({ term, weight: 1 }));
const doc = (title: string, text: string) => ({ title: analyze(title), text: analyze(text) });

function sample(): TermIndex {
  const index = new TermIndex(['title', 'text']);
  index.add('db.md', doc('Database', 'We use PostgreSQL 15 for the main database.'));
  index.add('deploy.md', doc('Deploys', 'Deploys go out on Fridays after the database migration.'));
  index.add('style.md', doc('Code style', 'Tabs, not spaces. Prettier runs on save.'));
  return index;
}

describe('TermIndex', () => {
  it('ranks by BM25F: a title match outweighs a body match', () => {
    const ids = sample().score(q('database'), fields).map((d) => d.id);
    expect(ids).toEqual(['db.md', 'deploy.md']);
  });

  it('reports which query terms each document matched', () => {
    const [top] = sample().score(q('friday deploys database'), fields);
    expect(top!.id).toBe('deploy.md');
    expect(top!.matched).toEqual([0, 1, 2]);
  });

  it('counts as matched a term held in a field that does not score, and a term given twice once', () => {
    const index = new TermIndex(['title', 'text']);
    index.add('a.md', { title: ['kiwi'], text: ['mango'] });
    const textOnly: ScoreOptions = { k1: 1.2, fields: { title: { weight: 0, b: 0.75 }, text: { weight: 1, b: 0.75 } } };
    const terms = ['kiwi', 'mango', 'mango'].map((term) => ({ term, weight: 1 }));
    const [hit] = index.score(terms, textOnly);
    expect(hit!.matched).toEqual([0, 1]);
    expect(index.score(terms.slice(0, 1), textOnly)).toEqual([]);
  });

  it('keeps document frequencies exact across remove and re-add', () => {
    const index = sample();
    expect(index.docFrequency('databas')).toBe(2);
    index.remove('deploy.md');
    expect(index.docFrequency('databas')).toBe(1);
    expect(index.size).toBe(2);
    expect(index.score(q('fridays'), fields)).toEqual([]);
    index.add('deploy.md', doc('Deploys', 'Deploys go out on Mondays.'));
    expect(index.score(q('monday'), fields).map((d) => d.id)).toEqual(['deploy.md']);
    expect(index.docFrequency('databas')).toBe(1);
  });

  it('re-indexes a document added again under the same id', () => {
    const index = sample();
    index.add('style.md', doc('Code style', 'Spaces now.'));
    expect(index.size).toBe(3);
    expect(index.score(q('tabs'), fields)).toEqual([]);
    expect(index.termsOf('style.md')).toEqual(expect.arrayContaining(['space', 'code', 'style']));
  });

  it('scores the same after many removals reuse slots as a fresh index over the same documents', () => {
    const live = new TermIndex(['title', 'text']);
    const texts = randomEdits(500, 7, { write: (id, text) => live.add(id, doc('', text)), remove: (id) => live.remove(id) });
    const fresh = new TermIndex(['title', 'text']);
    for (const [id, text] of texts) fresh.add(id, doc('', text));
    const byId = (r: { id: string; score: number }[]) => Object.fromEntries(r.map((d) => [d.id, d.score.toFixed(9)]));
    expect(byId(live.score(q('beta kappa'), fields))).toEqual(byId(fresh.score(q('beta kappa'), fields)));
    expect(live.size).toBe(texts.size);
  });

  it('knows each document’s terms after a round trip through its parts, and through edits after it', () => {
    const before = new TermIndex(['title', 'text']);
    const texts = randomEdits(300, 11, { write: (id, text) => before.add(id, doc('', text)), remove: (id) => before.remove(id) });
    const loaded = TermIndex.fromParts(['title', 'text'], before.toParts());
    const sorted = (index: TermIndex, id: string) => [...index.termsOf(id)].sort();
    for (const id of texts.keys()) expect(sorted(loaded, id), id).toEqual(sorted(before, id));
    // A term that leaves the index gives its number back; a new term may take it, and no document's terms change.
    const [first, second] = [...texts.keys()];
    loaded.add(first!, doc('', 'omega'));
    loaded.remove(first!);
    loaded.add(second!, doc('', 'psi alpha'));
    expect(loaded.termsOf(second!)).toEqual(['psi', 'alpha']);
    expect(loaded.docFrequency('omega')).toBe(0);
    for (const id of [...texts.keys()].slice(2)) expect(sorted(loaded, id), id).toEqual(sorted(before, id));
    expect(loaded.termsOf(first!)).toEqual([]);
  });

  it('scores only what the filter keeps', () => {
    const ids = sample().score(q('database'), { ...fields, filter: (id) => id !== 'db.md' }).map((d) => d.id);
    expect(ids).toEqual(['deploy.md']);
  });

  it('refuses a field it was not built with', () => {
    expect(() => new TermIndex(['text']).add('a', { body: ['x'] })).toThrow(/unknown field/);
  });
});
