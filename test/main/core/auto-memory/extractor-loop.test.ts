import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { mergeSameRole, runForkedAgent, toApiMessages } from '../../../../main/core/agent/index.js';
import { MemoryCursorStore } from '../../../../main/core/auto-memory/extraction-cursor.js';
import { toLoopCanUseTool } from '../../../../main/core/auto-memory/extractor-permissions.js';
import { MemoryExtractor, type ForkRunner } from '../../../../main/core/auto-memory/memory-extractor.js';
import { memoryWriteGuard } from '../../../../main/core/auto-memory/write-guard.js';
import { createLlmClient, type LlmClient } from '../../../../main/core/llm/index.js';
import { scanText } from '../../../../main/core/secrets/index.js';
import { defaultTools, ReadState, realScope, type ToolContext } from '../../../../main/core/tools/index.js';
import type { MessageRecord } from '../../../../main/core/transcripts/records.js';
import { apiErrors, startFakeAnthropic, text, toolCalls, type FakeAnthropic, type ScriptedResponse, type WireRequest } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { conversation, deferred } from './extractor-fixtures.js';

type WireMessage = NonNullable<WireRequest['messages']>[number];
const textOf = (m: WireMessage): string =>
  typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? String(b.text) : '')).join('\n');

/** Which extractor run step a request is (0 = its first call), from the messages after its instruction. */
function extractorStep(body: WireRequest): { prompt: string; step: number; before: WireMessage[] } | null {
  const messages = body.messages ?? [];
  const at = messages.findIndex((m) => m.role === 'user' && textOf(m).includes('You are the memory extractor'));
  if (at < 0) return null;
  return { prompt: textOf(messages[at]!), step: messages.slice(at + 1).filter((m) => m.role === 'assistant').length, before: messages.slice(0, at) };
}

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/**
 * The extractor as the chat builds it, at the engine level: `MemoryExtractor` over the real forked agent
 * (`runForkedAgent`, the real tools, the real SDK) against the strict fake Messages API. The fork adapter
 * mirrors `ConversationAgent.extractorFork` (main/core/chat/agent-setup.ts): the parent's prefix up to the
 * covered message, the guard on every memory write, an `error` status thrown.
 */
async function harness(respond: (body: WireRequest, step: number) => ScriptedResponse, options: { everyTurns?: number } = {}) {
  fake = await startFakeAnthropic({
    strict: true,
    respond: (body) => {
      const s = extractorStep(body);
      return s ? respond(body, s.step) : text('not an extractor request');
    },
  });
  const vault = await tempDir('strata-xloop-');
  const projectDir = path.join(vault, 'project');
  const memoryDir = path.join(vault, 'projects', 'p', 'memory');
  await fs.mkdir(projectDir, { recursive: true });
  await fs.mkdir(memoryDir, { recursive: true });
  const log = testLogger();
  const guard = memoryWriteGuard({ memoryDirs: [memoryDir], scan: scanText });
  const real = createLlmClient({ getApiKey: async () => 'sk-ant-test', baseURL: fake.url, model: 'claude-test' });
  // The gate holds the fork between its API calls, so a test can act while a run is in flight.
  let gate: Promise<void> | null = null;
  let inFlight = 0;
  let maxInFlight = 0;
  const llm: LlmClient = {
    ...real,
    stream: async (request, opts) => {
      if (gate) await gate;
      return real.stream(request, opts);
    },
  };
  const toolContext: Omit<ToolContext, 'signal'> = {
    scope: await realScope({ project: projectDir, memory: [memoryDir], readOnly: [] }),
    readState: new ReadState(),
    limits: defaultMemoryConfig.agent,
    beforeMemoryWrite: async (file, content) => {
      const check = await guard.check({ path: file, ...(content === null ? {} : { content }) });
      return check.ok ? null : `Refused: ${check.reason}.`;
    },
  };
  const fork: ForkRunner = async (request) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const r = await runForkedAgent({
        llm,
        system: [{ type: 'text', text: 'You are Strata.' }],
        tools: defaultTools(),
        messages: mergeSameRole(toApiMessages(request.contextMessages)),
        promptMessages: request.promptMessages,
        toolContext,
        canUseTool: toLoopCanUseTool(request.canUseTool),
        maxTurns: request.maxTurns,
        session: { sessionId: 's1', cwd: projectDir },
      });
      if (r.status === 'error') throw new Error(r.error?.message ?? 'the extractor failed');
      return { usage: r.usage, cacheHitRatio: r.cacheHitRatio, wrotePaths: [] };
    } finally {
      inFlight--;
    }
  };
  const cursors = new MemoryCursorStore();
  const extractor = new MemoryExtractor({
    memoryDir,
    projectDir,
    guard,
    fork,
    cursors,
    config: { ...defaultMemoryConfig.autoMemory, extractEveryTurns: options.everyTurns ?? 1 },
    switches: () => ({ autoMemory: true, extraction: true }),
    logger: log.logger,
    clock: { now: () => Date.UTC(2026, 0, 2) },
  });
  const f = fake;
  return {
    fake: f,
    memoryDir,
    projectDir,
    extractor,
    cursors,
    log,
    maxInFlight: () => maxInFlight,
    /** Requests that opened an extractor run (its first call). */
    runs: () => f.requests.map((r) => extractorStep(r.body)).filter((s): s is NonNullable<typeof s> => s !== null && s.step === 0),
    hold() {
      const d = deferred();
      gate = d.promise;
      return () => {
        gate = null;
        d.resolve();
      };
    },
  };
}

const allAccepted = (f: FakeAnthropic) => expect(f.requests.map((r) => r.rejected)).toEqual(f.requests.map(() => null));
const tabs = '---\nname: Prefers tabs\ndescription: Indent with tabs, never spaces\ntype: feedback\n---\nIndent with tabs.\n';

describe('the extractor through the real forked agent and the fake Messages API', () => {
  it('reads in one turn and writes in the next over the parent prefix, then moves the cursor to the last covered message', async () => {
    const t = await harness((_body, step) => {
      if (step === 0) return toolCalls([{ name: 'Read', input: { file_path: path.join(t.memoryDir, 'MEMORY.md') } }, { name: 'Glob', input: { pattern: '*.md', path: t.memoryDir } }]);
      if (step === 1)
        return toolCalls([
          { name: 'Write', input: { file_path: path.join(t.memoryDir, 'feedback_tabs.md'), content: tabs } },
          { name: 'Edit', input: { file_path: path.join(t.memoryDir, 'MEMORY.md'), old_string: '- [Role]', new_string: '- [Prefers tabs](feedback_tabs.md) — tabs, never spaces\n- [Role]' } },
        ]);
      return text('Saved.');
    });
    await fs.writeFile(path.join(t.memoryDir, 'MEMORY.md'), '- [Role](user_role.md) — Go developer\n');
    await fs.writeFile(path.join(t.memoryDir, 'user_role.md'), '---\nname: Role\ndescription: The user is a Go developer\ntype: user\n---\nGo.\n');
    const c = conversation();
    const outcome = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('I always indent with tabs, never spaces.', 'Noted.') });
    expect(outcome).toMatchObject({ kind: 'ran', covered: 2 });
    expect(await fs.readFile(path.join(t.memoryDir, 'feedback_tabs.md'), 'utf8')).toBe(tabs);
    expect(await fs.readFile(path.join(t.memoryDir, 'MEMORY.md'), 'utf8')).toBe('- [Prefers tabs](feedback_tabs.md) — tabs, never spaces\n- [Role](user_role.md) — Go developer\n');
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m2');
    // Three calls: reads, writes, the closing answer; each sends the parent's messages unchanged first.
    expect(t.fake.requests).toHaveLength(3);
    const first = extractorStep(t.fake.requests[0]!.body)!;
    expect(first.before.map(textOf)).toEqual(['I always indent with tabs, never spaces.', 'Noted.']);
    expect(first.prompt).toMatch(/most recent ~2 messages/);
    expect(first.prompt).toContain('- [user] user_role.md');
    expect(first.prompt).toMatch(/at most 5 turns/);
    allAccepted(t.fake);
    t.log.assertNoErrors();
  });

  it('throttles: with every 2 turns, the fake sees a run only on the 2nd and 4th turn, each over the messages since the last', async () => {
    const t = await harness(() => text('Nothing worth keeping.'), { everyTurns: 2 });
    const c = conversation();
    const kinds: string[] = [];
    for (let i = 1; i <= 4; i++) kinds.push((await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn(`question ${i}`) })).kind);
    expect(kinds).toEqual(['skipped', 'ran', 'skipped', 'ran']);
    const runs = t.runs();
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => /most recent ~(\d+) messages/.exec(r.prompt)![1])).toEqual(['4', '4']);
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m8');
    allAccepted(t.fake);
  });

  it('does not call the model when the main agent wrote into the memory folder since the cursor, and advances the cursor', async () => {
    const t = await harness(() => text('Nothing.'));
    const c = conversation();
    c.turn('hello there');
    const outcome = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.writeTurn(path.join(t.memoryDir, 'user_name.md')) });
    expect(outcome).toEqual({ kind: 'skipped', reason: 'main-agent-wrote' });
    expect(t.fake.requests).toHaveLength(0);
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m6');
    // The next turn is extracted again, over only what came after.
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('and another thing') })).toMatchObject({ kind: 'ran', covered: 2 });
    expect(t.runs()).toHaveLength(1);
  });

  it('runs one at a time and coalesces rapid turns into a single trailing run over only the newer messages', async () => {
    const t = await harness((_body, step) => (step === 0 ? toolCalls([{ name: 'Glob', input: { pattern: '*.md', path: t.memoryDir } }]) : text('Done.')));
    const c = conversation();
    const release = t.hold();
    const first = t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('one') });
    const rapid = [t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('two') }), t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('three') }), t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('four') })];
    release();
    expect(await first).toMatchObject({ kind: 'ran', covered: 2 });
    expect(await rapid[0]).toEqual({ kind: 'stashed' });
    expect(await rapid[1]).toEqual({ kind: 'stashed' });
    expect(await rapid[2]).toMatchObject({ kind: 'ran', covered: 6 });
    await t.extractor.drain();
    expect(t.maxInFlight()).toBe(1);
    const runs = t.runs();
    expect(runs).toHaveLength(2);
    expect(runs[1]!.prompt).toMatch(/most recent ~6 messages/);
    expect(runs[1]!.before.map(textOf).at(-2)).toBe('four');
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m8');
    allAccepted(t.fake);
  });

  it('stops the fork after 5 model turns even when the model keeps calling tools', async () => {
    const t = await harness(() => toolCalls([{ name: 'Glob', input: { pattern: '*.md', path: t.memoryDir } }]));
    const outcome = await t.extractor.onTurnEnd({ sessionId: 's1', messages: conversation().turn('remember nothing in particular') });
    expect(outcome.kind).toBe('ran');
    expect(t.fake.requests).toHaveLength(5);
    expect(t.fake.requests.map((r) => extractorStep(r.body)!.step)).toEqual([0, 1, 2, 3, 4]);
    allAccepted(t.fake);
  });

  it('leaves the cursor in place when the API fails, first call or mid-run, and reconsiders those messages next time', async () => {
    let failure: 'first' | 'second' | null = 'first';
    const t = await harness((_body, step) => {
      if (failure === 'first' && step === 0) return apiErrors.overloaded();
      if (failure === 'second' && step === 1) return apiErrors.serverError();
      if (step === 0) return toolCalls([{ name: 'Write', input: { file_path: path.join(t.memoryDir, 'feedback_tabs.md'), content: tabs } }]);
      return text('Saved.');
    });
    const c = conversation();
    const failed = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('I indent with tabs.') });
    expect(failed.kind).toBe('failed');
    expect(await t.cursors.read('s1')).toBeNull();
    expect(t.log.entries.filter((e) => e.level === 'warn' && e.message === 'memory extraction failed')).toHaveLength(1);

    failure = 'second';
    // The write of the first step happened; the run still failed, so the cursor stays.
    expect((await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('Really, tabs.') })).kind).toBe('failed');
    expect(await t.cursors.read('s1')).toBeNull();

    failure = null;
    const ok = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('Thanks.') });
    expect(ok).toMatchObject({ kind: 'ran', covered: 6 });
    expect(t.runs().at(-1)!.prompt).toMatch(/most recent ~6 messages/);
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m6');
    t.log.assertNoErrors();
  });

  it('counts every message again when compaction removed the cursor message', async () => {
    const t = await harness(() => text('Nothing.'));
    const c = conversation();
    c.turn('a first question');
    await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('a second question') });
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m4');
    // After compaction the history is a summary plus the kept tail; m4 is gone.
    const summary: MessageRecord = { ...c.records[0]!, uuid: 'summary', message: { role: 'user', content: 'Summary of the earlier conversation.' } };
    const compacted = [summary, ...conversation().turn('after compaction').map((r) => ({ ...r, uuid: `k-${r.uuid}` }))];
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: compacted })).toMatchObject({ kind: 'ran', covered: 3 });
    expect(t.runs().at(-1)!.prompt).toMatch(/most recent ~3 messages/);
    allAccepted(t.fake);
  });
});
