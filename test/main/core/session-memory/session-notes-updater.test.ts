import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import {
  DEFAULT_NOTES_TEMPLATE,
  SessionNotesUpdater,
  onlyEditOn,
  type ForkArgs,
  type ForkRunner,
} from '../../../../main/core/session-memory/index.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

const usage = { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 900, cache_creation_input_tokens: 0 };

/** A stand-in for the agent's fork runner: asks permission for one Edit on the notes and applies it. */
function editingFork(newWorklog = '- compiled the project') {
  const calls: { prompt: string; concurrent: number }[] = [];
  let active = 0;
  const fork: ForkRunner = async ({ promptMessages, canUseTool }: ForkArgs) => {
    active++;
    const prompt = promptMessages[0]!.content as string;
    const notesPath = /The notes file is (.+)\. It has/.exec(prompt)![1]!;
    calls.push({ prompt, concurrent: active });
    await new Promise((resolve) => setImmediate(resolve));
    const input = { file_path: notesPath, old_string: '# Worklog\n', new_string: `# Worklog\n${newWorklog}\n` };
    const decision = await canUseTool('Edit', input);
    if (decision.allow) {
      const text = await fs.readFile(notesPath, 'utf8');
      await fs.writeFile(notesPath, text.replace(input.old_string, input.new_string));
    }
    active--;
    return { usage, cacheHitRatio: 0.9 };
  };
  return { fork, calls };
}

async function setup(clockStart = 1_000) {
  const vault = await tempDir();
  const project = await tempDir();
  const log = testLogger();
  let now = clockStart;
  const make = () =>
    new SessionNotesUpdater({ vaultRoot: vault, config: defaultMemoryConfig.sessionMemory, clock: { now: () => now }, logger: log.logger });
  return { vault, project, log, make, tick: (ms: number) => (now += ms) };
}

/** A conversation at a natural pause with a context of `tokens`. */
function pause(tokens: number, t = new TranscriptBuilder()) {
  t.user('build the parser');
  t.assistant([{ type: 'text', text: 'done' }], { usage: { input_tokens: tokens } });
  return t;
}

describe('SessionNotesUpdater', () => {
  it('creates the notes from the template and lets the fork edit them when the trigger fires', async () => {
    const { project, make, log } = await setup();
    const updater = make();
    const { fork, calls } = editingFork();
    const t = pause(12_000);
    const { decision, outcome } = await updater.afterModelResponse({ sessionId: 's1', projectDir: project, records: t.records, fork, isFork: false });
    expect(decision.update).toBe(true);
    const notesPath = await updater.notesPath(project, 's1');
    expect(outcome).toEqual({ path: notesPath, updated: true, usage, cacheHitRatio: 0.9 });
    expect(calls[0]!.prompt).toContain(`<current_notes_content>\n${DEFAULT_NOTES_TEMPLATE}\n</current_notes_content>`);
    expect(await fs.readFile(notesPath, 'utf8')).toContain('# Worklog\n- compiled the project\n');
    expect(await updater.store.read('s1')).toEqual({
      initialized: true,
      updateCursorUuid: 'u2',
      tokensAtLastUpdate: 12_000,
      lastSummarizedMessageId: 'u2',
      updateStartedAt: null,
    });
    log.assertNoErrors();
  });

  it('resumes its cursors after a restart', async () => {
    const { project, make } = await setup();
    const { fork, calls } = editingFork();
    const t = pause(12_000);
    await make().afterModelResponse({ sessionId: 's1', projectDir: project, records: t.records, fork, isFork: false });
    // A new engine instance: 4,000 more tokens is not enough growth since the persisted update.
    pause(16_000, t);
    const restarted = make();
    const held = await restarted.afterModelResponse({ sessionId: 's1', projectDir: project, records: t.records, fork, isFork: false });
    expect(held.decision).toMatchObject({ update: false, reason: 'growth' });
    pause(17_000, t);
    const fired = await restarted.afterModelResponse({ sessionId: 's1', projectDir: project, records: t.records, fork, isFork: false });
    expect(fired.decision.update).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('does not move lastSummarizedMessageId while a tool call is pending', async () => {
    const { project, make } = await setup();
    const { fork } = editingFork();
    const t = new TranscriptBuilder();
    t.user('go');
    t.toolRound('Read', { file_path: '/a' }, 'a');
    t.toolRound('Read', { file_path: '/b' }, 'b');
    t.assistant([t.toolUse('Read', { file_path: '/c' })], { usage: { input_tokens: 11_000 } });
    const updater = make();
    const { decision } = await updater.afterModelResponse({ sessionId: 's1', projectDir: project, records: t.records, fork, isFork: false });
    expect(decision.reason).toBe('tool-calls');
    const state = await updater.store.read('s1');
    expect(state.lastSummarizedMessageId).toBeNull();
    expect(state.tokensAtLastUpdate).toBe(11_000);
  });

  it('reads a copy of the records taken when the hook fired: messages added during the fork are not covered', async () => {
    const { project, make } = await setup();
    const updater = make();
    const t = new TranscriptBuilder();
    t.user('go');
    t.toolRound('Read', { file_path: '/a' }, 'a');
    t.toolRound('Read', { file_path: '/b' }, 'b');
    const use = t.toolUse('Read', { file_path: '/c' });
    t.assistant([use], { usage: { input_tokens: 11_000 } });
    // The caller's live array: the conversation goes on while the update runs.
    const live = [...t.records];
    const fork: ForkRunner = async () => {
      t.toolResult(use.id, 'c');
      t.assistant('read it', { usage: { input_tokens: 30_000 } });
      live.push(...t.records.slice(live.length));
      return { usage, cacheHitRatio: 0 };
    };
    const { decision } = await updater.afterModelResponse({ sessionId: 's1', projectDir: project, records: live, fork, isFork: false });
    expect(decision).toMatchObject({ update: true, reason: 'tool-calls' });
    expect(live).toHaveLength(8);
    expect(await updater.store.read('s1')).toMatchObject({ tokensAtLastUpdate: 11_000, lastSummarizedMessageId: null, updateCursorUuid: 'u6' });
  });

  it('never runs an update from inside a fork', async () => {
    const { project, make } = await setup();
    const { fork, calls } = editingFork();
    const { decision } = await make().afterModelResponse({ sessionId: 's1', projectDir: project, records: pause(50_000).records, fork, isFork: true });
    expect(decision.reason).toBe('fork');
    expect(calls).toHaveLength(0);
  });

  it('runs the updates of one session one at a time', async () => {
    const { project, make } = await setup();
    const updater = make();
    const { fork, calls } = editingFork();
    const t = pause(12_000);
    await Promise.all([1, 2, 3].map(() => updater.updateNow({ sessionId: 's1', projectDir: project, records: t.records, fork })));
    expect(calls.map((c) => c.concurrent)).toEqual([1, 1, 1]);
  });

  it('marks the running update with its start time and clears the mark after', async () => {
    const { project, make } = await setup(5_000);
    const updater = make();
    let seen: number | null = null;
    const fork: ForkRunner = async () => {
      seen = (await updater.store.read('s1')).updateStartedAt;
      expect(updater.isUpdating('s1')).toBe(true);
      return { usage, cacheHitRatio: 0 };
    };
    const outcome = await updater.updateNow({ sessionId: 's1', projectDir: project, records: pause(100).records, fork });
    expect(seen).toBe(5_000);
    expect(outcome.updated).toBe(false);
    expect((await updater.store.read('s1')).updateStartedAt).toBeNull();
    expect(updater.isUpdating('s1')).toBe(false);
  });

  it('after a failed update clears the mark, keeps tokensAtLastUpdate and logs a warning', async () => {
    const { project, make, log } = await setup();
    const updater = make();
    const fork: ForkRunner = async () => {
      throw new Error('overloaded');
    };
    const t = pause(12_000);
    const { outcome } = await updater.afterModelResponse({ sessionId: 's1', projectDir: project, records: t.records, fork, isFork: false });
    expect(outcome).toBeNull();
    expect(await updater.store.read('s1')).toMatchObject({ tokensAtLastUpdate: 0, updateStartedAt: null, updateCursorUuid: 'u2', lastSummarizedMessageId: null });
    expect(log.entries).toContainEqual(expect.objectContaining({ level: 'warn', message: 'session notes update failed' }));
    log.assertNoErrors();
  });

  it('recreates deleted notes and restores hand-removed headers before the fork reads them', async () => {
    const { project, make } = await setup();
    const updater = make();
    const { fork, calls } = editingFork();
    const t = pause(12_000);
    await updater.updateNow({ sessionId: 's1', projectDir: project, records: t.records, fork });
    const notesPath = await updater.notesPath(project, 's1');
    await fs.rm(notesPath);
    await updater.updateNow({ sessionId: 's1', projectDir: project, records: t.records, fork });
    expect(calls[1]!.prompt).toContain(DEFAULT_NOTES_TEMPLATE);
    await fs.writeFile(notesPath, '# Worklog\n- kept\n');
    await updater.updateNow({ sessionId: 's1', projectDir: project, records: t.records, fork });
    const text = await fs.readFile(notesPath, 'utf8');
    expect(text.match(/^# /gm)).toHaveLength(10);
    expect(text).toContain('- kept');
  });

  it('uses the custom prompt of the vault, filled once', async () => {
    const { vault, project, make } = await setup();
    await fs.mkdir(path.join(vault, 'session-memory', 'config'), { recursive: true });
    await fs.writeFile(path.join(vault, 'session-memory', 'config', 'prompt.md'), 'The notes file is {{notesPath}}. It has {{currentNotes}}');
    const { fork, calls } = editingFork();
    const updater = make();
    await updater.updateNow({ sessionId: 's1', projectDir: project, records: pause(100).records, fork });
    expect(calls[0]!.prompt).toBe(`The notes file is ${await updater.notesPath(project, 's1')}. It has ${DEFAULT_NOTES_TEMPLATE}`);
  });

  it('keeps the other engines’ keys of the session state file', async () => {
    const { vault, project, make } = await setup();
    const updater = make();
    const file = path.join(vault, '.strata', 'sessions', 's1.json');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ extractor: { cursor: 'u9' } }));
    await updater.updateNow({ sessionId: 's1', projectDir: project, records: pause(100).records, fork: editingFork().fork });
    const stored = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(stored.extractor).toEqual({ cursor: 'u9' });
    expect(stored.sessionMemory.updateCursorUuid).toBe('u2');
  });
});

describe('onlyEditOn', () => {
  it('allows Edit on the notes file and denies everything else with a message the model sees', async () => {
    const can = onlyEditOn('/v/projects/p/s/session-memory/summary.md');
    expect(await can('Edit', { file_path: '/v/projects/p/s/session-memory/summary.md' })).toEqual({ allow: true });
    expect(await can('Edit', { file_path: '/v/projects/p/s/session-memory/../session-memory/summary.md' })).toEqual({ allow: true });
    const denied = { allow: false, message: 'only Edit on /v/projects/p/s/session-memory/summary.md is allowed' };
    expect(await can('Write', { file_path: '/v/projects/p/s/session-memory/summary.md' })).toEqual(denied);
    expect(await can('Edit', { file_path: '/v/other.md' })).toEqual(denied);
    expect(await can('Edit', { file_path: 'summary.md' })).toEqual(denied);
    expect(await can('Read', { file_path: '/etc/passwd' })).toEqual(denied);
    expect(await can('Edit', null)).toEqual(denied);
  });
});
