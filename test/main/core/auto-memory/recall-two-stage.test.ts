import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { MemoryRecall, type RecallRequest } from '../../../../main/core/auto-memory/memory-recall.js';
import type { SideQuery } from '../../../../main/core/auto-memory/recall-select.js';
import { tempDir } from '../../../support/temp-dir.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 12);
const config = defaultMemoryConfig.autoMemory;
const ask = (query: string, extra: Partial<RecallRequest> = {}): RecallRequest => ({ query, seen: new Set(), sessionBytesUsed: 0, ...extra });
const memory = (name: string, description: string, body = description) => `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`;

async function write(dir: string, rel: string, text: string, mtimeMs: number): Promise<void> {
  await fs.writeFile(path.join(dir, rel), text);
  await fs.utimes(path.join(dir, rel), mtimeMs / 1000, mtimeMs / 1000);
}

const topics = ['billing', 'search', 'onboarding', 'payments', 'analytics', 'mobile', 'storage', 'alerts', 'exports', 'sharing'];

/** `n` memories spread over two years, oldest first, each about one of ten topics. */
async function bigFolder(n: number): Promise<string> {
  const dir = await tempDir('strata-recall-big-');
  for (let i = 0; i < n; i++) {
    const topic = topics[i % topics.length]!;
    await write(dir, `note_${i}.md`, memory(`${topic} note ${i}`, `Decision ${i} about the ${topic} service and its owners`), NOW - (n - i) * (730 / n) * DAY);
  }
  return dir;
}

/** A selector that records its prompt and picks the listed files whose line mentions `word`. */
function recordingSelector(word: string) {
  const prompts: string[] = [];
  const sideQuery: SideQuery = async (system, user) => {
    prompts.push(system + user);
    const files = user.split('\n').filter((l) => l.includes(word)).map((l) => /^- (?:\[[^\]]+\] )?(\S+\.md)/.exec(l)?.[1]).filter(Boolean);
    return JSON.stringify({ selected_memories: files.slice(0, 5) });
  };
  return { prompts, sideQuery };
}

describe('two-stage recall', () => {
  it('lists an old memory that matches and a brand-new one that does not, within 4,000 tokens, at 1,000 memories', async () => {
    const dir = await bigFolder(1000);
    // The oldest file holds the answer; the newest shares no word with the question.
    await write(dir, 'note_0.md', memory('Quokka contract', 'The quokka contract renews in March with Acme'), NOW - 800 * DAY);
    await write(dir, 'just_now.md', memory('Lunch order', 'Team lunch is on Thursday'), NOW - 60_000);
    const { prompts, sideQuery } = recordingSelector('quokka');
    const result = await new MemoryRecall({ memoryDir: dir, config, clock: { now: () => NOW }, sideQuery }).recall(ask('When does the quokka contract renew?'));
    expect(result.method).toBe('model');
    expect(result.memories.map((m) => m.relPath)).toEqual(['note_0.md']);
    expect(prompts[0]).toContain('just_now.md');
    expect(Math.ceil(prompts[0]!.length / 4)).toBeLessThanOrEqual(4000);
    expect(result.explain.shortlist!.tokens).toBeLessThanOrEqual(4000);
    expect(result.explain.shortlist!.files).toBeGreaterThan(40);
    expect(result.explain.picks[0]).toMatchObject({ relPath: 'note_0.md', pickedBy: 'model', localRank: 1, listedAsNew: false });
  });

  it('costs a turn the same at 3,000 memories as at 300', async () => {
    const tokens: number[] = [];
    for (const n of [300, 3000]) {
      const { prompts, sideQuery } = recordingSelector('billing');
      await new MemoryRecall({ memoryDir: await bigFolder(n), config, clock: { now: () => NOW }, sideQuery }).recall(ask('who owns the billing service'));
      tokens.push(Math.ceil(prompts[0]!.length / 4));
    }
    expect(tokens[0]).toBeGreaterThan(3500);
    expect(tokens[1]).toBeLessThanOrEqual(4000);
  });

  it('answers with the local ranking and says why when the model call fails', async () => {
    const dir = await bigFolder(50);
    const failing: SideQuery = async () => Promise.reject(new Error('overloaded'));
    const result = await new MemoryRecall({ memoryDir: dir, config, clock: { now: () => NOW }, sideQuery: failing }).recall(ask('who owns the billing service'));
    expect(result.method).toBe('local');
    expect(result.explain.localBecause).toBe('the model call failed (overloaded)');
    expect(result.explain.picks[0]!.why!.words).toEqual(expect.arrayContaining(['billing']));
  });
});

describe('recall on bad input', () => {
  const recallIn = (dir: string, sideQuery: SideQuery | null = null) => new MemoryRecall({ memoryDir: dir, config, clock: { now: () => NOW }, sideQuery });

  it('answers from an empty or a missing folder without throwing', async () => {
    const empty = await tempDir('strata-recall-empty-');
    expect((await recallIn(empty).recall(ask('what do we know about billing'))).explain.nothingBecause).toBe('the memory folder holds no memories');
    const missing = path.join(empty, 'not-there');
    expect((await recallIn(missing).recall(ask('what do we know about billing'))).method).toBe('none');
  });

  it('ranks around broken frontmatter and a 5 MB memory, and takes a 10,000-character question', async () => {
    const dir = await tempDir('strata-recall-bad-');
    await write(dir, 'broken.md', '---\nname: [unclosed\ndescription: : :\n---\nThe kiwi deploy runs nightly.\n', NOW);
    await write(dir, 'huge.md', memory('Huge log', 'kiwi deploy log', 'kiwi deploy line\n'.repeat(300_000)), NOW);
    await write(dir, 'other.md', memory('Other', 'Unrelated notes about lunch'), NOW);
    const result = await recallIn(dir).recall(ask('when does the kiwi deploy run?'));
    expect(result.memories.map((m) => m.relPath).sort()).toEqual(['broken.md', 'huge.md']);
    expect(Buffer.byteLength(result.memories.find((m) => m.relPath === 'huge.md')!.content)).toBeLessThanOrEqual(config.recallMaxBytes);
    const long = `kiwi deploy ${'please tell me more about it '.repeat(400)}`.slice(0, 10_000);
    expect((await recallIn(dir).recall(ask(long))).memories.length).toBeGreaterThan(0);
  });

  it('finds memories written in CJK, with accents and right to left', async () => {
    const dir = await tempDir('strata-recall-scripts-');
    await write(dir, 'tokyo.md', memory('東京の事務所', '東京の事務所は渋谷にあります'), NOW);
    await write(dir, 'cafe.md', memory('Réunion au café', 'La réunion d’équipe a lieu au café le lundi'), NOW);
    await write(dir, 'hebrew.md', memory('פגישה', 'הפגישה השבועית ביום שני בבוקר'), NOW);
    await write(dir, 'plain.md', memory('Deploys', 'Deploys run on Fridays'), NOW);
    const first = async (q: string) => (await recallIn(dir).recall(ask(q))).memories[0]?.relPath;
    expect(await first('東京の事務所はどこ')).toBe('tokyo.md');
    expect(await first('reunion cafe lundi')).toBe('cafe.md');
    expect(await first('Réunion au Café?')).toBe('cafe.md');
    expect(await first('הפגישה השבועית מתי')).toBe('hebrew.md');
  });

  it('skips a memory deleted between the shortlist and the attach, and says so', async () => {
    const dir = await bigFolder(20);
    const deleting: SideQuery = async () => {
      await fs.rm(path.join(dir, 'note_0.md'));
      return JSON.stringify({ selected_memories: ['note_0.md', 'note_10.md'] });
    };
    const result = await recallIn(dir, deleting).recall(ask('who owns the billing service'));
    expect(result.memories.map((m) => m.relPath)).toEqual(['note_10.md']);
    expect(result.explain.skipped).toEqual([{ relPath: 'note_0.md', reason: 'gone before it could be attached' }]);
  });
});
