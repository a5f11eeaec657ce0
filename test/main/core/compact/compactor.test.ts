import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { Compactor } from '../../../../main/core/compact/index.js';
import {
  DEFAULT_NOTES_TEMPLATE,
  SessionMemoryStateStore,
  ensureNotesFile,
  notesPathFor,
  realProjectPath,
  type SummarizerFork,
} from '../../../../main/core/session-memory/index.js';
import { TranscriptBuilder, textOfTokens } from '../../../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

async function setup() {
  const vault = await tempDir();
  const project = await tempDir();
  const log = testLogger();
  const clock = { t: 100_000, now() { return this.t; } };
  const sleeps: number[] = [];
  const onSleep: { hook: (() => Promise<void>) | null } = { hook: null };
  const store = new SessionMemoryStateStore(vault);
  const compactor = new Compactor({
    vaultRoot: vault,
    config: defaultMemoryConfig.compaction,
    stateStore: store,
    clock,
    logger: log.logger,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.t += ms;
      await onSleep.hook?.();
    },
  });
  const notesPath = notesPathFor(vault, await realProjectPath(project), 's1');
  const t = new TranscriptBuilder('s1');
  for (let i = 0; i < 20; i++) {
    t.user(`q${i} ${textOfTokens(1_000)}`);
    t.assistant(textOfTokens(1_000), i === 19 ? { usage: { input_tokens: 170_000 } } : {});
  }
  const calls = { summarize: [] as (string | undefined)[] };
  const summarize: SummarizerFork = async ({ promptMessages }) => {
    calls.summarize.push(promptMessages[0]!.content as string);
    return { text: '<summary>earlier work</summary>', usage, cacheHitRatio: 0.9 };
  };
  const request = (over: Partial<Parameters<Compactor['compact']>[0]> = {}) => ({
    sessionId: 's1',
    projectDir: project,
    records: t.records,
    trigger: 'auto' as const,
    summarize,
    ...over,
  });
  const writeNotes = async (text: string) => {
    await ensureNotesFile(notesPath, DEFAULT_NOTES_TEMPLATE);
    await fs.writeFile(notesPath, text);
  };
  return { vault, project, log, clock, sleeps, onSleep, store, compactor, notesPath, t, calls, request, writeNotes };
}

const realNotes = DEFAULT_NOTES_TEMPLATE.replace('# Current State\n', '# Current State\nParser half done.\n');

describe('Compactor', () => {
  it('uses the notes when it can, then resets lastSummarizedMessageId', async () => {
    const s = await setup();
    await s.writeNotes(realNotes);
    await s.store.update('s1', (st) => ({ ...st, lastSummarizedMessageId: 'u30', tokensAtLastUpdate: 160_000 }));
    const out = await s.compactor.compact(s.request());
    expect(out.path).toBe('session-notes');
    expect(out.reason).toBeNull();
    expect(out.records[0]).toMatchObject({ subtype: 'compact_boundary' });
    expect(out.records.slice(2).map((r) => r.uuid)).toEqual(s.t.records.slice(30).map((r) => r.uuid));
    expect(s.calls).toEqual({ summarize: [] });
    expect(await s.store.read('s1')).toMatchObject({ lastSummarizedMessageId: null, tokensAtLastUpdate: out.result.tokensAfter });
    expect(s.sleeps).toEqual([]);
    s.log.assertNoErrors();
  });

  it('falls back to the summarizer and says why', async () => {
    const s = await setup();
    const missing = await s.compactor.compact(s.request());
    expect(missing).toMatchObject({ path: 'summarizer', reason: 'no-notes' });
    await s.writeNotes(DEFAULT_NOTES_TEMPLATE);
    expect(await s.compactor.compact(s.request())).toMatchObject({ path: 'summarizer', reason: 'template' });
    await s.writeNotes(realNotes);
    await s.store.update('s1', (st) => ({ ...st, lastSummarizedMessageId: 'nope' }));
    expect(await s.compactor.compact(s.request())).toMatchObject({ path: 'summarizer', reason: 'boundary-not-found' });
    expect(s.calls.summarize).toHaveLength(3);
  });

  it('checks the size for auto compaction only', async () => {
    const s = await setup();
    await s.writeNotes(realNotes);
    const huge = new TranscriptBuilder('s1');
    const cursor = huge.user('start');
    for (let i = 0; i < 20; i++) huge.assistant(textOfTokens(10_000));
    await s.store.update('s1', (st) => ({ ...st, lastSummarizedMessageId: cursor }));
    expect(await s.compactor.compact(s.request({ records: huge.records }))).toMatchObject({ path: 'summarizer', reason: 'over-threshold' });
    await s.store.update('s1', (st) => ({ ...st, lastSummarizedMessageId: cursor }));
    expect(await s.compactor.compact(s.request({ records: huge.records, trigger: 'manual' }))).toMatchObject({ path: 'session-notes', reason: null });
  });

  it('skips the notes for a manual compaction with instructions and passes them to the summarizer', async () => {
    const s = await setup();
    await s.writeNotes(realNotes);
    const out = await s.compactor.compact(s.request({ trigger: 'manual', instructions: 'Keep the SQL.' }));
    expect(out).toMatchObject({ path: 'summarizer', reason: 'instructions' });
    expect(s.calls.summarize[0]).toContain('Keep the SQL.');
  });

  it('waits for a running notes update, polling each second', async () => {
    const s = await setup();
    await s.writeNotes(realNotes);
    await s.store.update('s1', (st) => ({ ...st, updateStartedAt: s.clock.t, lastSummarizedMessageId: 'u38' }));
    s.onSleep.hook = async () => {
      if (s.sleeps.length === 3) await s.store.update('s1', (st) => ({ ...st, updateStartedAt: null }));
    };
    expect(await s.compactor.compact(s.request())).toMatchObject({ path: 'session-notes' });
    expect(s.sleeps).toEqual([1_000, 1_000, 1_000]);
  });

  it('gives up waiting after 15 s and ignores an update older than 60 s', async () => {
    const s = await setup();
    await s.writeNotes(realNotes);
    await s.store.update('s1', (st) => ({ ...st, updateStartedAt: s.clock.t }));
    await s.compactor.waitForRunningUpdate('s1');
    expect(s.sleeps).toHaveLength(15);
    s.sleeps.length = 0;
    await s.store.update('s1', (st) => ({ ...st, updateStartedAt: s.clock.t - 60_001 }));
    await s.compactor.waitForRunningUpdate('s1');
    expect(s.sleeps).toEqual([]);
  });

  it('stops auto-compacting after three failures in a row but still compacts on request', async () => {
    const s = await setup();
    const failing: SummarizerFork = async () => {
      throw new Error('overloaded');
    };
    for (let i = 0; i < 3; i++) await expect(s.compactor.compact(s.request({ summarize: failing }))).rejects.toThrow('overloaded');
    await expect(s.compactor.compact(s.request())).rejects.toThrow(/stopped for this session/);
    expect(await s.compactor.compact(s.request({ trigger: 'manual' }))).toMatchObject({ path: 'summarizer' });
    expect(s.log.entries.filter((e) => e.message === 'auto-compaction failed')).toHaveLength(3);
    s.log.assertNoErrors();
  });

  it('reads the notes from the real project path', async () => {
    const s = await setup();
    await s.writeNotes(realNotes);
    await s.store.update('s1', (st) => ({ ...st, lastSummarizedMessageId: 'u30' }));
    const link = path.join(s.vault, 'project-link');
    await fs.symlink(s.project, link);
    expect(await s.compactor.compact(s.request({ projectDir: link }))).toMatchObject({ path: 'session-notes' });
  });
});
