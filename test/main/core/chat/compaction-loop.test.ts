import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../../common/domain/chat.js';
import { TRUNCATION_MARKER } from '../../../../main/core/compact/index.js';
import { DEFAULT_NOTES_TEMPLATE, parseSections } from '../../../../main/core/session-memory/index.js';
import { apiErrors, text, toolCalls, type ScriptedResponse, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { PTL_RETRY_MARKER } from '../../../../main/core/compact/ptl-retry.js';
import { PromptCache } from '../../../fakes/anthropic-server/prompt-cache.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';

/**
 * docs/memory.md#session-notes through the real chat loop, the real SDK and the strict fake API: the notes fill in by
 * themselves, and when the context passes the threshold the conversation is compacted — from the notes
 * with no model call, or by the summarizer with the fallback reason shown — and goes on.
 */

let f: ChatFixture | null = null;
afterEach(async () => {
  await f?.close();
  f = null;
});

const NOTES_PROMPT = 'keep the session notes file current';
const SUMMARIZER_PROMPT = 'Your task is to write a detailed summary';
const WORKLOG_LINE = '_A terse step-by-step log of what was tried and done_\n';
/** About 6,500 tokens a question: the first notes update comes at ~15,000 tokens, the threshold (32,000) after five turns. */
const QUESTION = 'Please look at the parser module and explain how it handles nested blocks. '.repeat(330);

const lastUserText = (request: WireRequest): string => {
  const last = request.messages?.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => (b.type === 'text' ? String(b.text) : b.type)).join('\n');
};

interface Script {
  notesPath: string;
  /** Whether the notes fork edits the notes (false: it answers without touching them). */
  edit: boolean;
  updates: number;
  answers: number;
  /** What the summarizer answers. */
  summary: string;
  /** Summarizer calls refused as "prompt is too long" before it answers. */
  tooLong?: number;
  /** A file the main agent Reads when asked to "Read the big file". */
  bigFile?: string;
}

/** The model's side: the main agent answers briefly, the notes fork adds a Worklog line, the summarizer summarizes. */
function responder(s: Script) {
  return (request: WireRequest): ScriptedResponse => {
    const last = lastUserText(request);
    // A fork's instruction may share its user message with the tool result before it.
    if (last.includes('tool_result') && !last.includes(NOTES_PROMPT) && !last.includes(SUMMARIZER_PROMPT)) return text('Done.');
    if (last.includes(NOTES_PROMPT)) {
      s.updates += 1;
      if (!s.edit) return text('Nothing new to note.');
      return toolCalls([{ name: 'Edit', input: { file_path: s.notesPath, old_string: WORKLOG_LINE, new_string: `${WORKLOG_LINE}- step ${s.updates}: read the parser\n` } }]);
    }
    if (last.includes(SUMMARIZER_PROMPT)) {
      if (s.tooLong) {
        s.tooLong -= 1;
        return apiErrors.promptTooLong();
      }
      return text(s.summary);
    }
    if (s.bigFile && last.includes('Read the big file')) return toolCalls([{ name: 'Read', input: { file_path: s.bigFile } }]);
    s.answers += 1;
    return text(`Answer ${s.answers}: the parser keeps a stack of open blocks.`);
  };
}

const isNotesFork = (r: WireRequest) => JSON.stringify(r.messages ?? []).includes(NOTES_PROMPT);
const isSummarizer = (r: WireRequest) => JSON.stringify(r.messages ?? []).includes(SUMMARIZER_PROMPT);

/** The fake's usage of every request, replayed through its own prompt-cache simulation (same order, same result). */
function cacheShares(fake: ChatFixture['fake']): number[] {
  const cache = new PromptCache();
  return fake.requests.map((r) => {
    const u = cache.account(r.body);
    return u.cache_read_input_tokens / (u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens);
  });
}

interface Loop {
  f: ChatFixture;
  s: Script;
  sessionId: string;
  transcriptFile: string;
  /** One turn, then waits for the memory work it started. */
  turn(text?: string): Promise<void>;
  /** The compaction divider the next turn (or `chat:compact`) shows. */
  divider(): Promise<Extract<ChatItem, { kind: 'compaction' }>>;
  state(): Promise<Record<string, unknown>>;
}

/** A chat whose threshold is 32,000 tokens, with the default session-notes numbers (10,000 / 5,000 / 3). */
async function loop(options: { edit?: boolean; sessionMemory?: Record<string, number>; restart?: boolean } = {}): Promise<Loop> {
  const s: Script = { notesPath: '', edit: options.edit ?? true, updates: 0, answers: 0, summary: '<analysis>scratch</analysis><summary>1. Primary request: explain the parser.</summary>' };
  f = await chatFixture({ fake: { respond: responder(s) } });
  const fx = f;
  await fx.call('settings:set', {
    patch: {
      memory: {
        compaction: { contextWindow: 34_000, maxOutputTokens: 1_000, autoCompactBuffer: 1_000, waitForUpdateMs: 2_000 },
        ...(options.sessionMemory ? { sessionMemory: options.sessionMemory } : {}),
      },
    },
  });
  if (options.restart !== false) await fx.restart();
  const sessionId = await fx.newSession();
  s.notesPath = path.join(fx.services.vault().root, (await fx.call('notes:read', { project: fx.project, sessionId })).path);
  const transcriptFile = (await fx.services.vault().sessions.paths(fx.project)).transcriptFile(sessionId);
  return {
    f: fx,
    s,
    sessionId,
    transcriptFile,
    async turn(prompt = `Question ${s.answers + 1}: ${QUESTION}`) {
      const done = await fx.turn(sessionId, prompt);
      expect(done.phase).toBe('idle');
      await fx.services.vault().chat.find(sessionId)!.idle();
    },
    async divider() {
      const update = await fx.next('chat:did-update', (u) => u.sessionId === sessionId && u.upserts.some((i) => i.kind === 'compaction'));
      return update.upserts.find((i) => i.kind === 'compaction') as Extract<ChatItem, { kind: 'compaction' }>;
    },
    async state() {
      const file = fx.services.vault().chat.engines.notes.store.fileFor(sessionId);
      return (JSON.parse(await fs.readFile(file, 'utf8')) as { sessionMemory: Record<string, unknown> }).sessionMemory;
    },
  };
}

/** Five long turns: the context is past the 32,000-token threshold, the notes were updated along the way. */
async function fillContext(l: Loop): Promise<void> {
  for (let i = 0; i < 5; i++) await l.turn();
  const used = (await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId })).context;
  expect(used.used).toBeGreaterThanOrEqual(used.threshold);
}

/**
 * The turn after a bad input: the auto-compaction before it falls back for `reason`, the summarizer
 * runs, the transcript written so far is untouched (records are only appended), and the conversation
 * goes on with what the strict API accepts.
 */
async function expectSummarizerFallback(l: Loop, reason: string): Promise<void> {
  const before = await fs.readFile(l.transcriptFile);
  const divider = l.divider();
  await l.turn('Go on with the parser.');
  expect(await divider).toMatchObject({ path: 'summarizer', reason });
  const after = await fs.readFile(l.transcriptFile);
  expect(after.subarray(0, before.length).equals(before)).toBe(true);
  expect(l.f.fake.requests.filter((r) => isSummarizer(r.body))).toHaveLength(1);
  const main = l.f.fake.requests.filter((r) => !isNotesFork(r.body) && !isSummarizer(r.body)).at(-1)!;
  expect(JSON.stringify(main.body.messages)).toContain('Primary request: explain the parser.');
  expect(JSON.stringify(main.body.messages)).not.toContain('Question 1:');
  expectAllAccepted(l.f.fake);
}

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

  it('asks to condense 5 MB of notes on the next update and cuts each section at 8,000 characters in the summary', async () => {
    const l = await loop();
    for (let i = 0; i < 2; i++) await l.turn();
    const line = `${'The parser keeps a stack of open blocks and pops it at each close. '.repeat(2)}\n`;
    const huge = parseSections(DEFAULT_NOTES_TEMPLATE)
      .sections.map((s) => `${s.raw.trimEnd()}\n${s.title === 'Worklog' || s.title === 'Learnings' ? line.repeat(19_000) : line}\n`)
      .join('');
    expect(huge.length).toBeGreaterThan(5_000_000);
    await fs.writeFile(l.s.notesPath, huge);
    const sent = l.f.fake.requests.length;
    await l.turn();
    const update = l.f.fake.requests.slice(sent).find((r) => lastUserText(r.body).includes(NOTES_PROMPT))!;
    const prompt = lastUserText(update.body);
    expect(prompt).toMatch(/the notes file is about \d+ tokens, \d+ over the 12000-token limit/);
    expect(prompt).toMatch(/- "# Worklog" is about \d+ tokens \(limit: 2000\)/);
    expect(prompt).toMatch(/- "# Learnings" is about \d+ tokens \(limit: 2000\)/);
    expect(prompt).not.toContain('"# Current State" is about');
    // The 5 MB are not sent: the oversized sections are cut in the prompt, with a note.
    expect(prompt.length).toBeLessThan(60_000);
    expect(prompt.match(/\[… cut from this prompt only/g)).toHaveLength(2);

    const divider = l.divider();
    await l.f.call('chat:compact', { project: l.f.project, sessionId: l.sessionId });
    expect(await divider).toMatchObject({ path: 'session-notes', reason: null });
    await l.f.services.vault().chat.find(l.sessionId)!.idle();
    const summary = (await l.f.transcript(l.sessionId)).find((r) => r.isCompactSummary === true) as { message: { content: { text: string }[] } };
    const summaryText = summary.message.content[0]!.text;
    const sections = parseSections(summaryText).sections;
    expect(sections.map((s) => s.headerLine)).toEqual(parseSections(DEFAULT_NOTES_TEMPLATE).sections.map((s) => s.headerLine));
    for (const s of sections) expect(s.body.split(TRUNCATION_MARKER)[0]!.length).toBeLessThanOrEqual(8_000);
    expect(summaryText).toContain(`the complete session notes are in ${l.s.notesPath}`);
    expect(parseSections(summaryText).sections.find((s) => s.title === 'Worklog')!.body).toContain(TRUNCATION_MARKER);
    await l.turn('Go on with the parser.');
    expect(JSON.stringify(l.f.fake.requests.at(-1)!.body).length).toBeLessThan(300_000);
    expectAllAccepted(l.f.fake);
  });

  it('puts back headers removed by hand on the next update', async () => {
    const l = await loop();
    for (let i = 0; i < 2; i++) await l.turn();
    const notes = await fs.readFile(l.s.notesPath, 'utf8');
    const learnings = '_What worked, what did not, what to avoid; nothing already said in another section_\n';
    expect(notes).toContain(`# Learnings\n${learnings}`);
    const stripped = notes.replace('# Current State\n', '').replace('# Worklog\n', '').replace(learnings, '');
    await fs.writeFile(l.s.notesPath, stripped);
    await l.turn();
    const restored = await fs.readFile(l.s.notesPath, 'utf8');
    expect(parseSections(restored).sections.map((s) => s.headerLine)).toEqual(parseSections(DEFAULT_NOTES_TEMPLATE).sections.map((s) => s.headerLine));
    // A description line removed by hand comes back under its header too (docs/memory.md#session-notes: headers and description lines are kept).
    expect(restored).toContain(`# Learnings\n${learnings}`);
    expect(restored).toContain('- step 1: read the parser');
    expectAllAccepted(l.f.fake);
  });

  it('lets the notes fork Edit only the notes file: anything else is refused with a message the model sees', async () => {
    const l = await loop();
    const elsewhere = path.join(l.f.project, 'parser-notes.md');
    l.f.fake.enqueue(text('Answer 1: the parser keeps a stack of open blocks.'));
    await l.turn();
    // The next update tries a Write in the project, an Edit of another file, and the allowed Edit.
    l.f.fake.enqueue(text('Answer 2: nested blocks push onto the stack.'));
    l.f.fake.enqueue(
      toolCalls([
        { name: 'Write', input: { file_path: elsewhere, content: 'sneaky' } },
        { name: 'Edit', input: { file_path: path.join(l.f.project, 'CLAUDE.md'), old_string: 'a', new_string: 'b' } },
        { name: 'Edit', input: { file_path: l.s.notesPath, old_string: WORKLOG_LINE, new_string: `${WORKLOG_LINE}- tried other files\n` } },
      ]),
    );
    await l.turn();
    const results = l.f.fake.requests.map((r) => r.body).filter((b) => isNotesFork(b) && lastUserText(b).includes('tool_result')).at(-1)!;
    const denial = `only Edit on ${l.s.notesPath} is allowed`;
    expect(JSON.stringify(results.messages!.at(-1)).split(denial)).toHaveLength(3);
    await expect(fs.stat(elsewhere)).rejects.toThrow();
    await expect(fs.stat(path.join(l.f.project, 'CLAUDE.md'))).rejects.toThrow();
    expect(await fs.readFile(l.s.notesPath, 'utf8')).toContain('- tried other files');
    expectAllAccepted(l.f.fake);
  });

  it('applies a threshold changed in settings at once, without a restart: the meter and the compaction agree', async () => {
    const l = await loop({ restart: false });
    await fillContext(l);
    const divider = l.divider();
    await l.turn('Go on with the parser.');
    expect(await divider).toMatchObject({ path: 'session-notes', reason: null });
    expectAllAccepted(l.f.fake);
  });

  it('applies session-notes numbers changed in settings at once, without a restart', async () => {
    const l = await loop({ restart: false, sessionMemory: { minTokensToInit: 1_000_000 } });
    for (let i = 0; i < 3; i++) await l.turn();
    expect(l.s.updates).toBe(0);
  });

  it('compacts in the middle of a turn whose tool results pass the threshold, before the next request, and the turn goes on', async () => {
    const l = await loop();
    for (let i = 0; i < 3; i++) await l.turn();
    const meter = (await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId })).context;
    expect(meter.used).toBeLessThan(meter.threshold);
    // About 20,000 tokens in one tool result: the context passes the 32,000-token threshold inside the turn.
    l.s.bigFile = path.join(l.f.project, 'big.txt');
    await fs.writeFile(l.s.bigFile, 'The parser pushes every opened block on its stack and pops it when the block closes.\n'.repeat(720));
    const sent = l.f.fake.requests.length;
    const divider = l.divider();
    await l.turn('Read the big file and tell me what it says about blocks.');
    expect((await divider).tokensBefore).toBeGreaterThanOrEqual(32_000);
    const main = l.f.fake.requests.slice(sent).filter((r) => !isNotesFork(r.body) && !isSummarizer(r.body));
    // The question, then the request after the tool result: that one already went out compacted.
    expect(main).toHaveLength(2);
    const after = JSON.stringify(main[1]!.body.messages);
    expect(after).not.toContain('Question 1:');
    // The summary and the file just read (re-attached after a summarizer compaction) carry the turn on.
    expect(after).toContain('Primary request: explain the parser.');
    expect(after).toContain(`<file path=\\"${l.s.bigFile}\\">`);
    const items = (await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId })).items;
    const divided = items.findIndex((i) => i.kind === 'compaction');
    expect(divided).toBeGreaterThan(items.findIndex((i) => i.kind === 'tool'));
    expect(items.at(-1)).toMatchObject({ kind: 'assistant', text: expect.stringContaining('Answer 4:') });
    expectAllAccepted(l.f.fake);
  });

  it('stops auto-compacting after three failures in a row, and the conversation goes on', async () => {
    const l = await loop({ sessionMemory: { minTokensToInit: 1_000_000 } });
    l.s.summary = '';
    await fillContext(l);
    for (let i = 0; i < 4; i++) await l.turn('Go on with the parser.');
    expect(l.f.fake.requests.filter((r) => isSummarizer(r.body))).toHaveLength(3);
    const view = await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId });
    const failures = view.items.filter((i) => i.kind === 'notice' && i.text.startsWith('Compaction failed'));
    expect(failures).toHaveLength(3);
    expect(view.items.some((i) => i.kind === 'compaction')).toBe(false);
    expectAllAccepted(l.f.fake);
  });
});
