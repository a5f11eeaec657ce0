import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { MemoryRecall } from '../../../../main/core/auto-memory/memory-recall.js';
import { MemoryRanker } from '../../../../main/core/auto-memory/recall-rank.js';
import { scanMemoryFiles } from '../../../../main/core/auto-memory/memory-files.js';
import { parseSelection, type SideQuery } from '../../../../main/core/auto-memory/recall-select.js';
import { tempDir } from '../../../support/temp-dir.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/memories');
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2);
const config = defaultMemoryConfig.autoMemory;

/** The 50 fixture memories copied to a temp folder, each saved 10 days before NOW. */
async function fixtureFolder(): Promise<string> {
  const dir = await tempDir('strata-recall-');
  for (const name of await fs.readdir(fixtures)) {
    if (!name.endsWith('.md')) continue;
    await fs.copyFile(path.join(fixtures, name), path.join(dir, name));
    await fs.utimes(path.join(dir, name), (NOW - 10 * DAY) / 1000, (NOW - 10 * DAY) / 1000);
  }
  return dir;
}

const questions = async () => JSON.parse(await fs.readFile(path.join(fixtures, 'questions.json'), 'utf8')) as { question: string; expected: string }[];
const recallFor = (dir: string, sideQuery: SideQuery | null = null) => new MemoryRecall({ memoryDir: dir, config, clock: { now: () => NOW }, sideQuery });

describe('offline ranking', () => {
  it('holds the labelled memory in its top 5 for at least 18 of the 20 questions', async () => {
    const dir = await fixtureFolder();
    const ranker = new MemoryRanker(await scanMemoryFiles(dir));
    const qs = await questions();
    const misses = qs.filter((q) => !ranker.rank(q.question, 5).includes(q.expected)).map((q) => q.question);
    expect(qs).toHaveLength(20);
    expect(misses.length, `missed: ${misses.join(' | ')}`).toBeLessThanOrEqual(2);
  });
});

describe('MemoryRecall', () => {
  it('says in the header when a memory is past its valid-until day or due for review (docs/memory.md#freshness)', async () => {
    const dir = await tempDir('strata-recall-fresh-');
    const memory = (name: string, extra: string) => `---\nname: ${name}\ndescription: office floor seating plan ${name}\ntype: project\n${extra}---\nThe office floor plan.\n`;
    await fs.writeFile(path.join(dir, 'expired.md'), memory('expired', 'validUntil: 2026-12-01\n'));
    await fs.writeFile(path.join(dir, 'due.md'), memory('due', 'metadata:\n  reviewOn: 2026-12-02\n'));
    await fs.writeFile(path.join(dir, 'fine.md'), memory('fine', 'validUntil: 2026-12-02\nreviewOn: 2027-01-01\n'));
    const result = await recallFor(dir).recall({ query: 'office floor seating plan', seen: new Set(), sessionBytesUsed: 0 });
    const header = (rel: string) => result.memories.find((m) => m.relPath === rel)!.header.replace(/^.*verify before relying on it/, '');
    expect(header('expired.md')).toBe(' — valid until 2026-12-01, so no longer true unless the user says it still is');
    expect(header('due.md')).toBe(' — due for review since 2026-12-02: confirm it with the user before relying on it');
    expect(header('fine.md')).toBe('');
  });

  it('attaches at most 5 files with the age line, within the per-file caps', async () => {
    const dir = await fixtureFolder();
    const big = ['---', 'name: Huge', 'description: checkout checkout checkout latency notes', 'type: project', '---', ...Array.from({ length: 400 }, (_, i) => `checkout line ${i} ${'é'.repeat(30)}`)].join('\n');
    await fs.writeFile(path.join(dir, 'project_huge.md'), big);
    const result = await recallFor(dir).recall({ query: 'checkout latency budget and dashboards', seen: new Set(), sessionBytesUsed: 0 });
    expect(result.method).toBe('local');
    expect(result.memories.length).toBeGreaterThan(0);
    expect(result.memories.length).toBeLessThanOrEqual(5);
    for (const m of result.memories) {
      expect(Buffer.byteLength(m.content)).toBeLessThanOrEqual(4096);
      expect(m.content.split('\n').length).toBeLessThanOrEqual(203);
    }
    const huge = result.memories.find((m) => m.relPath === 'project_huge.md')!;
    expect(huge.content).toMatch(/\[cut at 200 lines \/ 4096 bytes — Read .*project_huge\.md for the whole file\]$/);
    const other = result.memories.find((m) => m.relPath !== 'project_huge.md')!;
    expect(other.header).toBe(`Memory: ${path.join(dir, other.relPath)} — saved 10 days ago — verify before relying on it`);
    expect(other.ageDays).toBe(10);
  });

  it('never attaches a file already attached or read, and stops at the session budget', async () => {
    const dir = await fixtureFolder();
    const recall = recallFor(dir);
    const query = 'checkout rewrite deadline and latency budget';
    const first = await recall.recall({ query, seen: new Set(), sessionBytesUsed: 0 });
    const seen = new Set(first.memories.map((m) => m.absPath));
    const second = await recall.recall({ query, seen, sessionBytesUsed: 0 });
    expect(second.memories.some((m) => seen.has(m.absPath))).toBe(false);
    const used = config.recallSessionBytes - 300;
    const tight = await recall.recall({ query, seen: new Set(), sessionBytesUsed: used });
    expect(tight.memories.reduce((s, m) => s + m.bytes, used)).toBeLessThanOrEqual(config.recallSessionBytes);
    const spent = await recall.recall({ query, seen: new Set(), sessionBytesUsed: config.recallSessionBytes });
    expect(spent).toMatchObject({ method: 'none', memories: [], explain: { nothingBecause: 'this conversation has used its recall budget' } });
  });

  it('skips a one-word message', async () => {
    const result = await recallFor(await fixtureFolder()).recall({ query: 'thanks', seen: new Set(), sessionBytesUsed: 0 });
    expect(result).toMatchObject({ method: 'none', memories: [], explain: { nothingBecause: 'a message of one word asks nothing to recall' } });
  });

  it('uses the model selection when the side query answers JSON, dropping unknown names', async () => {
    const dir = await fixtureFolder();
    const asked: { system: string; user: string; maxTokens: number }[] = [];
    const sideQuery: SideQuery = async (system, user, options) => {
      asked.push({ system, user, maxTokens: options.maxTokens });
      return '```json\n{"selected_memories": ["reference_sentry.md", "made_up.md", "feedback_tabs.md"]}\n```';
    };
    const result = await recallFor(dir, sideQuery).recall({ query: 'where do errors go', seen: new Set(), sessionBytesUsed: 0 });
    expect(result.method).toBe('model');
    expect(result.memories.map((m) => m.relPath)).toEqual(['reference_sentry.md', 'feedback_tabs.md']);
    expect(asked[0]!.maxTokens).toBe(256);
    expect(asked[0]!.user).toMatch(/^Query: where do errors go\n\nAvailable memories:\n- \[/);
    expect(asked[0]!.user).toContain('- [reference] reference_sentry.md (2026-11-22): Backend exceptions are reported');
    expect(result.explain.picks.map((p) => p.pickedBy)).toEqual(['model', 'model']);
    expect(result.explain.shortlist!.tokens).toBeLessThanOrEqual(4000);
  });

  it('falls back to the local ranking when the side query returns garbage or fails', async () => {
    const dir = await fixtureFolder();
    for (const sideQuery of [async () => 'I think sentry maybe?', async () => Promise.reject(new Error('offline'))] as SideQuery[]) {
      const result = await recallFor(dir, sideQuery).recall({ query: 'Where are backend exceptions reported?', seen: new Set(), sessionBytesUsed: 0 });
      expect(result.method).toBe('local');
      expect(result.memories.map((m) => m.relPath)).toContain('reference_sentry.md');
    }
  });

  it('does not call the model when told it is offline', async () => {
    let called = false;
    const result = await recallFor(await fixtureFolder(), async () => {
      called = true;
      return '{"selected_memories": []}';
    }).recall({ query: 'commit message format', seen: new Set(), sessionBytesUsed: 0, offline: true });
    expect(called).toBe(false);
    expect(result.method).toBe('local');
  });
});

describe('one MemoryRecall kept across turns', () => {
  it('re-reads only changed files and keeps its index current as files are added, changed and removed', async () => {
    const dir = await fixtureFolder();
    const recall = recallFor(dir);
    const ask = async (query: string) => (await recall.recall({ query, seen: new Set(), sessionBytesUsed: 0, offline: true })).memories.map((m) => m.relPath);
    const total = (await fs.readdir(dir)).filter((n) => n.endsWith('.md') && n !== 'MEMORY.md').length;
    expect(await ask('Where are backend exceptions reported?')).toContain('reference_sentry.md');
    expect(recall.lastScan).toEqual({ read: total, reused: 0 });
    expect(await ask('Where are backend exceptions reported?')).toContain('reference_sentry.md');
    expect(recall.lastScan).toEqual({ read: 0, reused: total });

    await fs.writeFile(path.join(dir, 'project_quokka.md'), '---\nname: Quokka mascot\ndescription: The quokka is the team mascot\ntype: project\n---\nQuokka stickers.\n');
    const changed = path.join(dir, 'reference_sentry.md');
    await fs.writeFile(changed, '---\nname: Wombat board\ndescription: Wombat tickets live on the wombat board\ntype: reference\n---\nWombat.\n');
    expect(await ask('Tell me about the quokka mascot stickers')).toEqual(['project_quokka.md']);
    expect(recall.lastScan).toEqual({ read: 2, reused: total - 1 });
    expect((await ask('Which board holds the wombat tickets?'))[0]).toBe('reference_sentry.md');

    await fs.rm(path.join(dir, 'project_quokka.md'));
    expect(await ask('Tell me about the quokka mascot stickers')).toEqual([]);
    expect(recall.lastScan).toEqual({ read: 0, reused: total });
  });
});

describe('parseSelection', () => {
  const known = new Set(['a.md', 'b.md']);
  it.each([
    ['{"selected_memories": ["a.md"]}', ['a.md']],
    ['Sure! {"selected_memories": ["./b.md", "a.md", "a.md"]} done', ['b.md', 'a.md']],
    ['["a.md", 3, null]', ['a.md']],
    ['{"selected_memories": []}', []],
    ['no json here', null],
    ['{"other": 1}', null],
  ])('parses %s', (reply, expected) => {
    expect(parseSelection(reply, known, 5)).toEqual(expected);
  });
});
