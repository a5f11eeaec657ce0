import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ChatItem } from '../../../../common/domain/chat.js';
import { apiErrors, text, toolCalls, type ScriptedResponse, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { PromptCache } from '../../../fakes/anthropic-server/prompt-cache.js';
import { chatFixture, expectAllAccepted, type ChatFixture } from './chat-fixture.js';
import { expect } from 'vitest';

/** The chat loop of compaction-loop*.test.ts (docs/memory.md#session-notes): a scripted notes fork, summarizer and main agent. */

let f: ChatFixture | null = null;
/** Closes the chat `loop()` made (each test file's afterEach). */
export async function closeLoop(): Promise<void> {
  await f?.close();
  f = null;
}

export const NOTES_PROMPT = 'keep the session notes file current';
export const SUMMARIZER_PROMPT = 'Your task is to write a detailed summary';
export const WORKLOG_LINE = '_A terse step-by-step log of what was tried and done_\n';
/** About 6,500 tokens a question: the first notes update comes at ~15,000 tokens, the threshold (32,000) after five turns. */
export const QUESTION = 'Please look at the parser module and explain how it handles nested blocks. '.repeat(330);

export const lastUserText = (request: WireRequest): string => {
  const last = request.messages?.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => (b.type === 'text' ? String(b.text) : b.type)).join('\n');
};

export interface Script {
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
export function responder(s: Script) {
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

export const isNotesFork = (r: WireRequest) => JSON.stringify(r.messages ?? []).includes(NOTES_PROMPT);
export const isSummarizer = (r: WireRequest) => JSON.stringify(r.messages ?? []).includes(SUMMARIZER_PROMPT);

/** The fake's usage of every request, replayed through its own prompt-cache simulation (same order, same result). */
export function cacheShares(fake: ChatFixture['fake']): number[] {
  const cache = new PromptCache();
  return fake.requests.map((r) => {
    const u = cache.account(r.body);
    return u.cache_read_input_tokens / (u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens);
  });
}

export interface Loop {
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
export async function loop(options: { edit?: boolean; sessionMemory?: Record<string, number>; restart?: boolean } = {}): Promise<Loop> {
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
export async function fillContext(l: Loop): Promise<void> {
  for (let i = 0; i < 5; i++) await l.turn();
  const used = (await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId })).context;
  expect(used.used).toBeGreaterThanOrEqual(used.threshold);
}

/**
 * The turn after a bad input: the auto-compaction before it falls back for `reason`, the summarizer
 * runs, the transcript written so far is untouched (records are only appended), and the conversation
 * goes on with what the strict API accepts.
 */
export async function expectSummarizerFallback(l: Loop, reason: string): Promise<void> {
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

