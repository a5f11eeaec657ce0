import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TranscriptStore } from '../../../../main/core/transcripts/transcript-store.js';
import { isMessageRecord } from '../../../../main/core/transcripts/records.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { recordMaker } from './record-builders.js';

const SLUG = '-home-u-proj';

async function setup() {
  const vault = await tempDir();
  const log = testLogger();
  let now = Date.UTC(2026, 0, 10);
  const clock = { now: () => now };
  const store = new TranscriptStore({ vaultRoot: vault, clock, logger: log.logger, trashDays: 30 });
  return { vault, store, log, advanceDays: (d: number) => (now += d * 86_400_000) };
}

describe('TranscriptStore: append and read', () => {
  it('appends batches as JSONL lines at projects/<slug>/<sessionId>.jsonl and reads them back in order', async () => {
    const { vault, store, log } = await setup();
    const m = recordMaker('s1');
    const first = [m.user('hello'), m.assistant('hi')];
    const second = [m.user('again')];
    await store.append(SLUG, 's1', first);
    await store.append(SLUG, 's1', second);
    const text = await fs.readFile(path.join(vault, 'projects', SLUG, 's1.jsonl'), 'utf8');
    expect(text.split('\n')).toHaveLength(4);
    expect(text.endsWith('\n')).toBe(true);
    const read = await store.read(SLUG, 's1');
    expect(read.records).toEqual([...first, ...second]);
    expect(read.malformed).toEqual([]);
    expect(read.tornTail).toBe(false);
    log.assertNoErrors();
  });

  it('skips a line torn by a crash and starts the next append on a fresh line', async () => {
    const { vault, store } = await setup();
    const m = recordMaker('s1');
    const kept = m.user('before the crash');
    await store.append(SLUG, 's1', [kept]);
    const file = path.join(vault, 'projects', SLUG, 's1.jsonl');
    await fs.appendFile(file, '{"type":"assistant","uuid":"torn","mess');
    const afterCrash = await store.read(SLUG, 's1');
    expect(afterCrash.records).toEqual([kept]);
    expect(afterCrash.tornTail).toBe(true);

    const next = m.user('after restart');
    await store.append(SLUG, 's1', [next]);
    const read = await store.read(SLUG, 's1');
    expect(read.records).toEqual([kept, next]);
    expect(read.malformed).toEqual([{ line: 2, reason: expect.stringContaining('not JSON') }]);
  });

  it('reports malformed lines with their numbers and keeps reading past them', async () => {
    const { vault, store, log } = await setup();
    const m = recordMaker('s1');
    const a = m.user('a');
    const b = m.assistant('b');
    const file = path.join(vault, 'projects', SLUG, 's1.jsonl');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, `${JSON.stringify(a)}\nnot json\n[1,2]\n\n{"no":"type"}\n${JSON.stringify(b)}\n`);
    const read = await store.read(SLUG, 's1');
    expect(read.records).toEqual([a, b]);
    expect(read.malformed.map((x) => x.line)).toEqual([2, 3, 5]);
    expect(log.entries.some((e) => e.level === 'warn' && e.message.includes('unreadable lines'))).toBe(true);
  });

  it('keeps every concurrent batch whole, one after another', async () => {
    const { store } = await setup();
    const batches = Array.from({ length: 20 }, (_, i) => {
      const m = recordMaker('s1', i * 1e6);
      return [m.user(`q${i}`), m.assistant(`a${i}`)];
    });
    await Promise.all(batches.map((b) => store.append(SLUG, 's1', b)));
    const read = await store.read(SLUG, 's1');
    expect(read.records).toHaveLength(40);
    expect(read.malformed).toEqual([]);
    for (let i = 0; i < 40; i += 2) {
      expect((read.records[i + 1] as { parentUuid: string }).parentUuid).toBe(read.records[i]!.uuid);
    }
  });

  it('answers not_found for a missing session and invalid_request for an unsafe session id', async () => {
    const { store } = await setup();
    await expect(store.read(SLUG, 'nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.append(SLUG, '../x', [])).rejects.toMatchObject({ code: 'invalid_request' });
    expect(() => store.fileFor('../etc', 's1')).toThrow(/Not a project slug/);
  });
});

describe('TranscriptStore: sessions list', () => {
  it('lists sessions newest first with the first prompt as title, times and message counts', async () => {
    const { store } = await setup();
    const older = recordMaker('old', Date.UTC(2026, 0, 1));
    await store.append(SLUG, 'old', [
      older.user('<system-reminder>context</system-reminder>', { isMeta: true }),
      older.user('Fix the\n  login bug'),
      older.assistant('ok'),
    ]);
    const newer = recordMaker('new', Date.UTC(2026, 0, 3));
    await store.append(SLUG, 'new', [newer.user('Write docs'), newer.assistant('sure'), newer.user('thanks')]);
    const list = await store.list(SLUG);
    expect(list.map((s) => s.sessionId)).toEqual(['new', 'old']);
    expect(list[0]).toMatchObject({ title: 'Write docs', titles: expect.objectContaining({ custom: null, summary: null }), messageCount: 3, messageCountApproximate: false });
    expect(list[0]!.updatedAt).toBe(newer.lastMs);
    expect(list[0]!.createdAt).toBe(Date.UTC(2026, 0, 3) + 1000);
    expect(list[1]).toMatchObject({ title: 'Fix the login bug', messageCount: 3 });
  });

  it('prefers a rename (custom-title record, latest wins) over a summary record over the first prompt', async () => {
    const { store } = await setup();
    const m = recordMaker('s1');
    await store.append(SLUG, 's1', [m.user('first prompt'), { type: 'summary', summary: 'Auth refactor', leafUuid: 'x' }]);
    expect((await store.list(SLUG))[0]).toMatchObject({ title: 'Auth refactor', titles: expect.objectContaining({ custom: null, summary: 'Auth refactor' }) });
    await store.rename(SLUG, 's1', 'Login work');
    await store.rename(SLUG, 's1', '  Login   work, part 2 ');
    expect((await store.list(SLUG))[0]).toMatchObject({ title: 'Login work, part 2', titles: expect.objectContaining({ custom: 'Login work, part 2' }) });
    const read = await store.read(SLUG, 's1');
    expect(read.records.at(-1)).toEqual({ type: 'custom-title', customTitle: 'Login work, part 2', sessionId: 's1' });
    await expect(store.rename(SLUG, 's1', '   ')).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(store.rename(SLUG, 'missing', 'x')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('summarizes a long transcript from its head and tail, estimating the middle count', async () => {
    const { store } = await setup();
    const m = recordMaker('big');
    const records = [m.user('The very first question')];
    for (let i = 0; i < 3000; i++) records.push(i % 2 ? m.user(`follow-up ${i} ${'x'.repeat(80)}`) : m.assistant(`answer ${i} ${'y'.repeat(80)}`));
    await store.append(SLUG, 'big', records);
    await store.rename(SLUG, 'big', 'Renamed at the end');
    const [summary] = await store.list(SLUG);
    expect(summary!.sizeBytes).toBeGreaterThan(4 * 64 * 1024);
    expect(summary).toMatchObject({ title: 'Renamed at the end', messageCountApproximate: true });
    expect(summary!.updatedAt).toBe(m.lastMs);
    expect(Math.abs(summary!.messageCount - 3001)).toBeLessThan(150);
  });

  it('returns an empty list for a project with no transcripts', async () => {
    const { store } = await setup();
    expect(await store.list('-nothing-here')).toEqual([]);
  });
});

describe('TranscriptStore: delete, undo, purge', () => {
  async function withConversation() {
    const ctx = await setup();
    const m = recordMaker('s1');
    await ctx.store.append(SLUG, 's1', [m.user('keep me'), m.assistant('ok')]);
    const notes = path.join(ctx.vault, 'projects', SLUG, 's1', 'session-memory', 'summary.md');
    await fs.mkdir(path.dirname(notes), { recursive: true });
    await fs.writeFile(notes, '# Session Title\n');
    return { ...ctx, notes, transcript: path.join(ctx.vault, 'projects', SLUG, 's1.jsonl') };
  }

  it('moves the transcript and the session folder with its notes into .strata/trash', async () => {
    const { store, vault, notes, transcript } = await withConversation();
    const entry = await store.delete(SLUG, 's1');
    expect(entry).toMatchObject({ kind: 'conversation', label: 'keep me', meta: { projectSlug: SLUG, sessionId: 's1' } });
    await expect(fs.stat(transcript)).rejects.toThrow();
    await expect(fs.stat(notes)).rejects.toThrow();
    expect(await fs.readdir(path.join(vault, '.strata', 'trash', entry.id))).toHaveLength(3);
    expect(await store.list(SLUG)).toEqual([]);
    expect((await store.trash.list()).map((e) => e.id)).toEqual([entry.id]);
  });

  it('restores a deleted conversation exactly (Undo)', async () => {
    const { store, notes, transcript } = await withConversation();
    const before = await fs.readFile(transcript, 'utf8');
    const entry = await store.delete(SLUG, 's1');
    await store.restore(entry.id);
    expect(await fs.readFile(transcript, 'utf8')).toBe(before);
    expect(await fs.readFile(notes, 'utf8')).toBe('# Session Title\n');
    expect(await store.trash.list()).toEqual([]);
  });

  it('refuses to restore over a conversation that exists again, keeping the trash entry', async () => {
    const { store } = await withConversation();
    const entry = await store.delete(SLUG, 's1');
    await store.append(SLUG, 's1', [recordMaker('s1').user('new one')]);
    await expect(store.restore(entry.id)).rejects.toMatchObject({ code: 'conflict' });
    expect(await store.trash.list()).toHaveLength(1);
  });

  it('moves extra paths such as the session state file along with it', async () => {
    const { store, vault } = await withConversation();
    const state = path.join(vault, '.strata', 'sessions', 's1.json');
    await fs.mkdir(path.dirname(state), { recursive: true });
    await fs.writeFile(state, '{}');
    const entry = await store.delete(SLUG, 's1', [state]);
    await expect(fs.stat(state)).rejects.toThrow();
    await store.restore(entry.id);
    expect(await fs.readFile(state, 'utf8')).toBe('{}');
  });

  it('purges trash entries once they are older than 30 days, not before', async () => {
    const { store, advanceDays } = await withConversation();
    await store.delete(SLUG, 's1');
    advanceDays(29);
    expect(await store.purgeTrash()).toBe(0);
    expect(await store.trash.list()).toHaveLength(1);
    advanceDays(1);
    expect(await store.purgeTrash()).toBe(1);
    expect(await store.trash.list()).toEqual([]);
  });

  it('answers not_found when deleting a conversation that does not exist', async () => {
    const { store } = await setup();
    await expect(store.delete(SLUG, 'ghost')).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.restore('123-abc')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reads message records back as message records', async () => {
    const { store } = await withConversation();
    const read = await store.read(SLUG, 's1');
    expect(read.records.every(isMessageRecord)).toBe(true);
  });
});

describe('transcript files by path', () => {
  it('reads a transcript given by path and answers not_found for a missing one', async () => {
    const { readTranscriptFile, appendRecords } = await import('../../../../main/core/transcripts/transcript-file.js');
    const dir = await tempDir();
    const file = path.join(dir, 'nested', 'x.jsonl');
    const m = recordMaker('x');
    await appendRecords(file, [m.user('one')]);
    await appendRecords(file, []);
    expect((await readTranscriptFile(file)).records).toHaveLength(1);
    await expect(readTranscriptFile(path.join(dir, 'none.jsonl'))).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('TranscriptStore: titles past a large first record', () => {
  it('finds the first prompt even when a large attachment fills the head window', async () => {
    const { store } = await setup();
    const m = recordMaker('img');
    const image = m.user('', { isMeta: true });
    image.message.content = [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(200_000) } }];
    const records = [image, m.user('What is in this picture?')];
    for (let i = 0; i < 2000; i++) records.push(m.assistant(`line ${i} ${'z'.repeat(60)}`));
    await store.append(SLUG, 'img', records);
    const [summary] = await store.list(SLUG);
    expect(summary).toMatchObject({ title: 'What is in this picture?', titles: expect.objectContaining({ custom: null, summary: null }), messageCountApproximate: true });
  });
});
