import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTES_TEMPLATE, parseSections } from '../../../../main/core/session-memory/index.js';
import { PTL_RETRY_MARKER } from '../../../../main/core/compact/ptl-retry.js';
import { expectAllAccepted } from './chat-fixture.js';
import { closeLoop, cacheShares, expectSummarizerFallback, fillContext, isNotesFork, isSummarizer, loop } from './compaction-loop-fixture.js';

/**
 * docs/memory.md#session-notes through the real chat loop, the real SDK and the strict fake API: the notes fill in by
 * themselves, and when the context passes the threshold the conversation is compacted — from the notes
 * with no model call, or by the summarizer with the fallback reason shown — and goes on.
 */

afterEach(closeLoop);

describe('compaction on the chat loop', () => {
  it('after "Compact now" past the threshold, the meter drops below it and the next turn does not compact again', async () => {
    const l = await loop();
    await fillContext(l);
    const first = l.divider();
    const idle = l.f.next('chat:did-update', (u) => u.sessionId === l.sessionId && u.phase === 'idle');
    await l.f.call('chat:compact', { project: l.f.project, sessionId: l.sessionId });
    expect(await first).toMatchObject({ path: 'session-notes' });
    await idle;
    const meter = (await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId })).context;
    expect(meter.used).toBeLessThan(meter.threshold);
    const dividers = () => l.f.events.filter((e) => e.channel === 'chat:did-update' && JSON.stringify(e.payload).includes('"kind":"compaction"')).length;
    const seen = dividers();
    await l.turn('Go on with the parser.');
    expect(dividers()).toBe(seen);
    expectAllAccepted(l.f.fake);
  });

  it('compacts past the threshold from the notes with no model call; the forks read ≥90 % of their input from the cache', async () => {
    const l = await loop();
    const memoryDir = (await l.f.services.vault().sessions.paths(l.f.project)).memoryDir;
    await fs.mkdir(memoryDir, { recursive: true });
    await fs.writeFile(path.join(l.f.project, 'CLAUDE.md'), 'Always name the parser module explicitly.\n');
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Tabs](feedback_tabs.md) — the user indents with tabs\n');
    await fillContext(l);
    expect(l.s.updates).toBeGreaterThanOrEqual(3);
    // The context meter warned from 20,000 tokens below the threshold on.
    const meters = l.f.events.filter((e) => e.channel === 'chat:did-update').map((e) => (e.payload as { context: { used: number; threshold: number; warning: boolean } }).context);
    expect(meters.some((m) => m.used > 0 && m.used < 12_000)).toBe(true);
    for (const m of meters) expect(m).toMatchObject({ threshold: 32_000, warning: m.used >= 12_000 });
    // Changed before the compaction: what is injected after it is read anew.
    await fs.writeFile(path.join(memoryDir, 'MEMORY.md'), '- [Tabs](feedback_tabs.md) — the user indents with tabs, width 4\n');
    const notes = await fs.readFile(l.s.notesPath, 'utf8');
    expect(notes).toContain('- step 1: read the parser');
    expect((await l.state()).lastSummarizedMessageId).toEqual(expect.any(String));

    const before = await fs.readFile(l.transcriptFile);
    const sent = l.f.fake.requests.length;
    const divider = l.divider();
    await l.turn('Go on with the parser.');
    const item = await divider;
    expect(item).toMatchObject({ path: 'session-notes', reason: null, transcriptPath: l.transcriptFile });
    expect(item.tokensAfter).toBeLessThan(item.tokensBefore);
    expect(item.tokensBefore).toBeGreaterThanOrEqual(32_000);
    // No model call between the last turn and this one's own request, which already carries the notes.
    const first = l.f.fake.requests[sent]!.body;
    expect(isNotesFork(first) || isSummarizer(first)).toBe(false);
    expect(JSON.stringify(first.messages)).toContain('- step 1: read the parser');
    expect(JSON.stringify(first.messages)).toContain('Answer 5:');
    expect(JSON.stringify(first.messages)).not.toContain('Question 1:');
    // CLAUDE.md and MEMORY.md were read again and injected after the compaction (docs/memory.md#compaction "After either").
    expect(JSON.stringify(first.messages)).toContain('Always name the parser module explicitly.');
    expect(JSON.stringify(first.messages)).toContain('the user indents with tabs, width 4');
    expect(l.f.fake.requests.some((r) => isSummarizer(r.body))).toBe(false);
    const after = await fs.readFile(l.transcriptFile);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    // The notes keep filling in after the compaction (5,000 tokens of growth later) and cover the new messages.
    const updates = l.s.updates;
    await l.turn();
    await l.turn();
    expect(l.s.updates).toBe(updates + 1);
    expect((await l.state()).lastSummarizedMessageId).toBe((await l.f.transcript(l.sessionId)).at(-1)!.uuid);

    // Every fork request shares the parent's prefix: the fake serves ≥90 % of its input from the cache.
    const shares = cacheShares(l.f.fake);
    const forks = l.f.fake.requests.map((r, i) => ({ r, share: shares[i]! })).filter(({ r }) => isNotesFork(r.body));
    expect(forks.length).toBeGreaterThanOrEqual(8);
    for (const { share } of forks) expect(share).toBeGreaterThanOrEqual(0.9);
    expectAllAccepted(l.f.fake);
  });

  it('falls back no-notes when the notes were deleted, and the next update recreates them from the template', async () => {
    const l = await loop();
    await fillContext(l);
    await fs.rm(l.s.notesPath);
    await expectSummarizerFallback(l, 'no-notes');
    // The summarizer fork shares the parent's prefix too.
    const shares = cacheShares(l.f.fake);
    const at = l.f.fake.requests.findIndex((r) => isSummarizer(r.body));
    expect(shares[at]).toBeGreaterThanOrEqual(0.9);
    // The next update (once the context grew again) recreates the file from the template, then edits it.
    await l.turn();
    const notes = await fs.readFile(l.s.notesPath, 'utf8');
    expect(parseSections(notes).sections.map((s) => s.headerLine)).toEqual(parseSections(DEFAULT_NOTES_TEMPLATE).sections.map((s) => s.headerLine));
    expect(notes).toContain(`- step ${l.s.updates}: read the parser`);
    expect(notes).not.toContain('- step 1:');
  });

  it('retries a summarizer refused as too long without the oldest rounds, then compacts and goes on', async () => {
    const l = await loop();
    await fillContext(l);
    await fs.rm(l.s.notesPath);
    l.s.tooLong = 1;
    const divider = l.divider();
    await l.turn('Go on with the parser.');
    expect(await divider).toMatchObject({ path: 'summarizer', reason: 'no-notes' });
    const [refused, retried] = l.f.fake.requests.filter((r) => isSummarizer(r.body)).map((r) => r.body.messages!);
    expect(JSON.stringify(refused)).toContain('Question 1:');
    // "210000 tokens > 200000 maximum": about 10,000 tokens go — the opening question and the next round.
    expect(retried![0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: PTL_RETRY_MARKER }] });
    expect(retried![1]!.role).toBe('assistant');
    expect(JSON.stringify(retried)).not.toContain('Question 1:');
    expect(JSON.stringify(retried)).not.toContain('Question 2:');
    expect(JSON.stringify(retried)).toContain('Question 3:');
    const main = l.f.fake.requests.filter((r) => !isNotesFork(r.body) && !isSummarizer(r.body)).at(-1)!;
    expect(JSON.stringify(main.body.messages)).toContain('Primary request: explain the parser.');
    expectAllAccepted(l.f.fake);
  });

  it('falls back template when the updates never wrote anything', async () => {
    const l = await loop({ edit: false });
    await fillContext(l);
    expect(l.s.updates).toBeGreaterThanOrEqual(3);
    expect(await fs.readFile(l.s.notesPath, 'utf8')).toBe(DEFAULT_NOTES_TEMPLATE);
    await expectSummarizerFallback(l, 'template');
  });

  it('falls back template when the notes were emptied by hand', async () => {
    const l = await loop();
    await fillContext(l);
    await fs.writeFile(l.s.notesPath, '\n');
    await expectSummarizerFallback(l, 'template');
  });

  it('falls back over-threshold when the notes would not leave the context under the threshold', async () => {
    const l = await loop();
    await fillContext(l);
    const big = parseSections(DEFAULT_NOTES_TEMPLATE)
      .sections.map((s) => `${s.raw.trimEnd()}\n${'A detail about the parser worth keeping.\n'.repeat(180)}\n`)
      .join('');
    await fs.writeFile(l.s.notesPath, big);
    await expectSummarizerFallback(l, 'over-threshold');
  });

  it('falls back error when the notes cannot be read', async () => {
    const l = await loop();
    await fillContext(l);
    await fs.rm(l.s.notesPath);
    await fs.mkdir(l.s.notesPath);
    await expectSummarizerFallback(l, 'error');
  });

  it('falls back boundary-not-found when the cursor points at a message compacted away', async () => {
    const l = await loop();
    for (let i = 0; i < 3; i++) await l.turn();
    let divider = l.divider();
    await l.f.call('chat:compact', { project: l.f.project, sessionId: l.sessionId });
    expect(await divider).toMatchObject({ path: 'session-notes', reason: null });
    await l.f.services.vault().chat.find(l.sessionId)!.idle();
    expect((await l.state()).lastSummarizedMessageId).toBe(null);
    const first = (await l.f.transcript(l.sessionId)).find((r) => r.type === 'user' && JSON.stringify(r).includes('Question 1:'))!;

    // The state file edited by hand: the cursor names the first question, which the compaction dropped.
    const file = l.f.services.vault().chat.engines.notes.store.fileFor(l.sessionId);
    const whole = JSON.parse(await fs.readFile(file, 'utf8')) as { sessionMemory: Record<string, unknown> };
    whole.sessionMemory.lastSummarizedMessageId = first.uuid;
    await fs.writeFile(file, JSON.stringify(whole));
    const before = await fs.readFile(l.transcriptFile);
    divider = l.divider();
    await l.f.call('chat:compact', { project: l.f.project, sessionId: l.sessionId });
    expect(await divider).toMatchObject({ path: 'summarizer', reason: 'boundary-not-found' });
    await l.f.services.vault().chat.find(l.sessionId)!.idle();
    const after = await fs.readFile(l.transcriptFile);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    await l.turn('Go on with the parser.');
    expectAllAccepted(l.f.fake);
  });
});
