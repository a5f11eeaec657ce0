import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/temp-dir.js';
import { openVault, memoryText } from '../vault/vault-helpers.js';
import { loadSearchCache, searchCacheFile } from '../../../../main/core/search/index-cache.js';
import { silentLogger } from '../../../../main/core/ports.js';
import { transcriptText } from '../../../../main/core/search/transcript-text.js';

const P = 'projects/-home-me-app';

async function vaultWithContent(): Promise<string> {
  const r = await tempDir('strata-search-');
  await fs.mkdir(path.join(r, P, 'memory', 'team'), { recursive: true });
  await fs.mkdir(path.join(r, P, 's1', 'session-memory'), { recursive: true });
  await fs.mkdir(path.join(r, 'projects', 'other', 'memory'), { recursive: true });
  await fs.writeFile(path.join(r, 'CLAUDE.md'), '# Me\n\nAlways answer in British English.\n');
  await fs.writeFile(path.join(r, P, 'memory', 'db.md'), memoryText('Database', 'which engine we use', 'We use PostgreSQL 15.\n\n**Why:** replication.', 'project'));
  await fs.writeFile(path.join(r, P, 'memory', 'team', 'deploy.md'), memoryText('Deploys', 'how deploys run', 'Deploys go through the blue pipeline.', 'reference'));
  await fs.writeFile(path.join(r, 'projects', 'other', 'memory', 'db.md'), memoryText('Other DB', 'other project', 'PostgreSQL too.', 'project'));
  await fs.writeFile(path.join(r, P, 's1', 'session-memory', 'summary.md'), '# Session Title\n_title_\nFixing the flaky PostgreSQL test\n');
  const records = [
    { type: 'user', uuid: 'u1', message: { role: 'user', content: 'Why is the pipeline red?' } },
    { type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: 'secretword.txt' } }] } },
    { type: 'user', uuid: 'u2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'secretword inside a tool result' }] } },
    { type: 'assistant', uuid: 'a2', message: { role: 'assistant', content: [{ type: 'text', text: 'The pipeline is red because\nthe migration failed.' }] } },
  ];
  await fs.writeFile(path.join(r, P, 's1.jsonl'), `${records.map((x) => JSON.stringify(x)).join('\n')}\n{"torn`);
  return r;
}

describe('Vault search', () => {
  it('finds memories, notes, instructions and transcripts with line, snippet and highlight ranges', async () => {
    const { vault } = await openVault(await vaultWithContent());
    const hits = vault.search('postgresql');
    // The conversation is named by its notes' Session Title, which holds the word, so its transcript is found by its title.
    expect(hits.map((h) => h.path).sort()).toEqual([`${P}/memory/db.md`, `${P}/s1.jsonl`, `${P}/s1/session-memory/summary.md`, 'projects/other/memory/db.md']);
    const db = hits.find((h) => h.path === `${P}/memory/db.md`)!;
    expect(db).toMatchObject({ scope: 'project-memory', type: 'project', title: 'Database', line: 7 });
    expect(db.snippet).toBe('We use PostgreSQL 15.');
    expect(db.ranges.map(([a, b]) => db.snippet.slice(a, b))).toEqual(['PostgreSQL']);
    expect(vault.search('british')[0]).toMatchObject({ path: 'CLAUDE.md', scope: 'instructions', line: 3 });
    // The title shows the name already: a body line with the word is the better snippet…
    expect(vault.search('deploys')[0]).toMatchObject({ title: 'Deploys', snippet: 'Deploys go through the blue pipeline.', line: 7 });
    // …and a word only in the frontmatter still gets its line.
    expect(vault.search('engine')[0]).toMatchObject({ path: `${P}/memory/db.md`, snippet: 'description: which engine we use', line: 3 });
  });

  it('shows, for a prefix as typed, the line with the word it completes and highlights the whole word', async () => {
    const { vault } = await openVault(await vaultWithContent());
    const db = vault.search('postg replic').find((h) => h.path === `${P}/memory/db.md`)!;
    expect(db).toMatchObject({ line: 7, snippet: 'We use PostgreSQL 15.' });
    expect(db.ranges.map(([a, b]) => db.snippet.slice(a, b))).toEqual(['PostgreSQL']);
    const why = vault.search('replic')[0]!;
    expect(why).toMatchObject({ path: `${P}/memory/db.md`, line: 9, snippet: '**Why:** replication.' });
    expect(why.ranges.map(([a, b]) => why.snippet.slice(a, b))).toEqual(['replication']);
  });

  it('indexes only user and assistant text of transcripts, pointing at the JSONL line', async () => {
    const { vault } = await openVault(await vaultWithContent());
    const [hit] = vault.search('migration');
    expect(hit).toMatchObject({ path: `${P}/s1.jsonl`, scope: 'transcript', line: 4 });
    expect(vault.search('secretword')).toEqual([]);
    expect(transcriptText('{"type":"user","isMeta":true,"message":{"role":"user","content":"reminder"}}').text).toBe('');
  });

  it('filters by scope, type and project', async () => {
    const { vault } = await openVault(await vaultWithContent());
    expect(vault.search('postgresql', { scope: 'session-notes' }).map((h) => h.path)).toEqual([`${P}/s1/session-memory/summary.md`]);
    expect(vault.search('deploys', { type: 'reference' }).map((h) => h.scope)).toEqual(['team-memory']);
    expect(vault.search('postgresql', { projects: ['other'] }).map((h) => h.path)).toEqual(['projects/other/memory/db.md']);
    expect(vault.search('postgresql', { limit: 1 })).toHaveLength(1);
  });

  it('discards a corrupt cache and rebuilds the index from the files', async () => {
    const root = await vaultWithContent();
    const first = await openVault(root);
    await first.vault.close();
    expect((await fs.stat(searchCacheFile(root))).size).toBeGreaterThan(0);
    await fs.writeFile(searchCacheFile(root), '{"version":1,"docs":[{"path":"x"}]}\n{not json');
    const { vault, log } = await openVault(root);
    expect(log.entries.some((e) => e.level === 'warn' && /cache discarded/.test(e.message))).toBe(true);
    expect(vault.search('british').map((h) => h.path)).toEqual(['CLAUDE.md']);
  });

  it('never reads the MiniSearch cache of earlier versions: rebuilds from the files, then replaces it', async () => {
    const root = await vaultWithContent();
    const dir = path.dirname(searchCacheFile(root));
    await fs.mkdir(dir, { recursive: true });
    // Version 4's layout: a JSON header with the documents, then MiniSearch's JSON; it claims CLAUDE.md says `pirate`.
    const doc = { path: 'CLAUDE.md', scope: 'instructions', title: 'CLAUDE.md', text: 'pirate', mtimeMs: 0, size: 6, ino: 1, hash: null, meta: { path: 'CLAUDE.md' } };
    const old = `${JSON.stringify({ version: 4, docs: [doc] })}\n${JSON.stringify({ documentCount: 1, nextId: 1, documentIds: { 0: 'CLAUDE.md' }, index: [] })}`;
    await fs.writeFile(path.join(dir, 'search-index.v4.json'), old);
    const first = await openVault(root);
    expect(first.vault.search('pirate')).toEqual([]);
    expect(first.vault.search('british').map((h) => h.path)).toEqual(['CLAUDE.md']);
    await first.vault.close();
    expect((await fs.readdir(dir)).filter((f) => f.startsWith('search-index'))).toEqual([path.basename(searchCacheFile(root))]);
    // Found where the new cache is looked for, the old layout is discarded, not misread.
    await fs.writeFile(searchCacheFile(root), old);
    const second = await openVault(root);
    expect(second.log.entries.filter((e) => /cache discarded/.test(e.message)).map((e) => e.fields?.reason)).toEqual(['other version']);
    expect(second.vault.search('pirate')).toEqual([]);
    expect(second.vault.search('replication').map((h) => h.path)).toEqual([`${P}/memory/db.md`]);
    await second.vault.close();
    // What it saved at close is the new format, read back whole.
    const saved = await loadSearchCache(root, silentLogger);
    expect(saved?.search('british').map((h) => h.path)).toEqual(['CLAUDE.md']);
    expect(saved?.search('pirate')).toEqual([]);
  });

  it('uses the cache but re-reads files changed, added or removed while closed', async () => {
    const root = await vaultWithContent();
    const first = await openVault(root);
    await first.vault.close();
    await fs.writeFile(path.join(root, 'CLAUDE.md'), '# Me\n\nAnswer like a pirate.\n');
    await fs.rm(path.join(root, 'projects', 'other'), { recursive: true });
    await fs.writeFile(path.join(root, P, 'memory', 'fresh.md'), memoryText('Fresh', 'new while closed', 'kumquat'));
    const { vault } = await openVault(root);
    expect(vault.search('british')).toEqual([]);
    expect(vault.search('pirate').map((h) => h.path)).toEqual(['CLAUDE.md']);
    expect(vault.search('kumquat').map((h) => h.path)).toEqual([`${P}/memory/fresh.md`]);
    expect(vault.list().some((m) => m.path.startsWith('projects/other/'))).toBe(false);
  });

  it('falls back to any-word matches when no file has every word', async () => {
    const { vault } = await openVault(await vaultWithContent());
    expect(vault.search('pirate postgresql').length).toBeGreaterThan(0);
    expect(vault.search('   ')).toEqual([]);
  });
});
