import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { FileCursorStore } from '../../../../main/core/auto-memory/extraction-cursor.js';
import { MemoryExtractor, type ForkRunner } from '../../../../main/core/auto-memory/memory-extractor.js';
import { memoryWriteGuard } from '../../../../main/core/auto-memory/write-guard.js';
import { createExtractorCanUseTool, toLoopCanUseTool } from '../../../../main/core/auto-memory/extractor-permissions.js';
import { sessionStateFile } from '../../../../main/core/auto-memory/memory-paths.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';
import { conversation, fakeFork } from './extractor-fixtures.js';

async function setup(fork: ForkRunner, options: { everyTurns?: number; switches?: { autoMemory: boolean; extraction: boolean } } = {}) {
  const vault = await tempDir('strata-extract-');
  const projectDir = await tempDir('strata-project-');
  const memoryDir = path.join(vault, 'projects', 'p', 'memory');
  await fs.mkdir(memoryDir, { recursive: true });
  const cursors = new FileCursorStore(vault);
  const log = testLogger();
  const switches = options.switches ?? { autoMemory: true, extraction: true };
  const extractor = new MemoryExtractor({
    memoryDir,
    projectDir,
    guard: memoryWriteGuard({ memoryDirs: [memoryDir], scan: (t) => (t.includes('SECRET') ? [{ rule: 'x', line: 1 }] : []) }),
    fork,
    cursors,
    config: { ...defaultMemoryConfig.autoMemory, extractEveryTurns: options.everyTurns ?? 1 },
    switches: () => switches,
    logger: log.logger,
    clock: { now: () => Date.UTC(2026, 0, 2) },
  });
  return { vault, projectDir, memoryDir, cursors, extractor, log, switches };
}

describe('MemoryExtractor', () => {
  it('runs at the end of a turn with the manifest prompt, 5 turns, and moves the cursor to the last message', async () => {
    const f = fakeFork({ writes: [{ file_path: 'user_role.md', content: '---\nname: Role\ndescription: d\ntype: user\n---\nGo dev' }] });
    const t = await setup(f.fork);
    await fs.writeFile(path.join(t.memoryDir, 'existing.md'), '---\nname: E\ndescription: prefers tabs\ntype: feedback\n---\nx');
    const c = conversation();
    const outcome = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('I am a Go developer') });
    expect(outcome).toMatchObject({ kind: 'ran', covered: 2, wrotePaths: [path.join(t.memoryDir, 'user_role.md')] });
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0]!.maxTurns).toBe(5);
    const prompt = f.calls[0]!.promptMessages[0]!.content;
    expect(prompt).toMatch(/most recent ~2 messages/);
    expect(prompt).toMatch(/- \[feedback\] existing\.md \(.*\): prefers tabs/);
    expect(prompt).toMatch(/first turn issue every Read/);
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m2');
    t.log.assertNoErrors();
  });

  it('keeps other keys of the session file when it writes its cursor', async () => {
    const f = fakeFork();
    const t = await setup(f.fork);
    const file = sessionStateFile(t.vault, 's1');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ sessionMemory: { lastSummarizedUuid: 'zz' } }));
    await t.extractor.onTurnEnd({ sessionId: 's1', messages: conversation().turn('hello there') });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ sessionMemory: { lastSummarizedUuid: 'zz' }, extraction: { lastMessageUuid: 'm2' } });
  });

  it('runs every N turns only', async () => {
    const f = fakeFork();
    const t = await setup(f.fork, { everyTurns: 3 });
    const c = conversation();
    const outcomes = [];
    for (let i = 0; i < 6; i++) outcomes.push((await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn(`turn ${i}`) })).kind);
    expect(outcomes).toEqual(['skipped', 'skipped', 'ran', 'skipped', 'skipped', 'ran']);
    expect(f.calls).toHaveLength(2);
    // The second run covers only what came after the first run's cursor.
    expect(f.calls[1]!.promptMessages[0]!.content).toMatch(/most recent ~6 messages/);
  });

  it('skips and advances the cursor when the main agent wrote into the memory folder itself', async () => {
    const f = fakeFork();
    const t = await setup(f.fork);
    const c = conversation();
    c.turn('first');
    const outcome = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.writeTurn(path.join(t.memoryDir, 'x.md')) });
    expect(outcome).toEqual({ kind: 'skipped', reason: 'main-agent-wrote' });
    expect(f.calls).toHaveLength(0);
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m6');
    // A write elsewhere in the project does not count.
    const other = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.writeTurn(path.join(t.projectDir, 'src.ts')) });
    expect(other.kind).toBe('ran');
  });

  it('does nothing for a subagent, a pending tool call, or when a project switch is off', async () => {
    const f = fakeFork();
    const t = await setup(f.fork);
    const c = conversation();
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('a b'), agentId: 'sub' })).toEqual({ kind: 'skipped', reason: 'subagent' });
    const pending = [...c.records];
    pending.push({ ...pending[1]!, uuid: 'p', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'Read', input: {} }] } });
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: pending })).toEqual({ kind: 'skipped', reason: 'pending-tool-call' });
    t.switches.extraction = false;
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('c d') })).toEqual({ kind: 'skipped', reason: 'disabled' });
    t.switches.extraction = true;
    t.switches.autoMemory = false;
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('e f') })).toEqual({ kind: 'skipped', reason: 'disabled' });
    expect(f.calls).toHaveLength(0);
  });

  it('runs one at a time and coalesces rapid turns into one trailing run over only the newer messages', async () => {
    const f = fakeFork();
    const t = await setup(f.fork);
    const c = conversation();
    const release = f.hold();
    const first = t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('one') });
    // The next turns end while the first run is under way (on a loaded machine its start can take a while).
    await until(() => f.calls.length === 1);
    const second = t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('two') });
    const third = t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('three') });
    const fourth = t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('four') });
    await new Promise((r) => setImmediate(r));
    expect(f.calls).toHaveLength(1);
    release();
    expect(await first).toMatchObject({ kind: 'ran', covered: 2 });
    expect(await second).toEqual({ kind: 'stashed' });
    expect(await third).toEqual({ kind: 'stashed' });
    expect(await fourth).toMatchObject({ kind: 'ran', covered: 6 });
    await t.extractor.drain();
    expect(f.calls).toHaveLength(2);
    expect(f.calls[1]!.contextMessages.at(-1)!.uuid).toBe('m8');
    expect((await t.cursors.read('s1'))!.lastMessageUuid).toBe('m8');
  });

  it('leaves the cursor in place when the fork fails, and covers those messages next time', async () => {
    const failing = fakeFork({ fail: 'API 529 overloaded' });
    let fork: ForkRunner = failing.fork;
    const t = await setup((r) => fork(r));
    const c = conversation();
    const outcome = await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('one') });
    expect(outcome).toEqual({ kind: 'failed', message: 'API 529 overloaded' });
    expect(await t.cursors.read('s1')).toBeNull();
    expect(t.log.entries.filter((e) => e.level === 'warn')).toHaveLength(1);
    const ok = fakeFork();
    fork = ok.fork;
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('two') })).toMatchObject({ kind: 'ran', covered: 4 });
  });

  it('counts every message again when the cursor message vanished (compaction)', async () => {
    const f = fakeFork();
    const t = await setup(f.fork);
    await t.cursors.write('s1', { lastMessageUuid: 'gone-after-compaction', updatedAt: '' });
    const c = conversation();
    c.turn('a');
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: c.turn('b') })).toMatchObject({ kind: 'ran', covered: 4 });
    expect(await t.extractor.onTurnEnd({ sessionId: 's1', messages: [...c.records] })).toEqual({ kind: 'skipped', reason: 'no-new-messages' });
  });

  it('lets the fork write only inside the memory folder and without secrets', async () => {
    const f = fakeFork({
      writes: [
        { file_path: 'ok.md', content: 'fine, no Why line' },
        { file_path: '../escape.md', content: 'x' },
        { file_path: 'leak.md', content: 'SECRET here' },
      ],
    });
    const t = await setup(f.fork);
    await t.extractor.onTurnEnd({ sessionId: 's1', messages: conversation().turn('x y') });
    expect(await fs.readdir(t.memoryDir)).toEqual(['ok.md']);
    expect(f.denied.map((d) => d.path)).toEqual(['../escape.md', 'leak.md']);
    expect(await fs.readdir(path.dirname(t.memoryDir))).toEqual(['memory']);
  });
});

describe('createExtractorCanUseTool', () => {
  it('allows reads in the project and the memory folder, guarded writes, and denies everything else', async () => {
    const project = await tempDir('strata-perm-');
    const memory = path.join(project, '..', path.basename(project) + '-mem');
    const can = createExtractorCanUseTool({ projectDir: project, guard: memoryWriteGuard({ memoryDirs: [memory], scan: () => [] }) });
    expect(await can('Read', { file_path: path.join(project, 'a.ts') })).toEqual({ behavior: 'allow' });
    expect(await can('Grep', { pattern: 'x' })).toEqual({ behavior: 'allow' });
    expect(await can('Glob', { pattern: '*', path: memory })).toEqual({ behavior: 'allow' });
    expect((await can('Read', { file_path: '/etc/passwd' })).behavior).toBe('deny');
    expect((await can('Write', { file_path: path.join(project, 'src.ts'), content: 'x' })).behavior).toBe('deny');
    expect(await can('Delete', { file_path: path.join(memory, 'a.md') })).toEqual({ behavior: 'allow', updatedInput: { file_path: path.join(memory, 'a.md') } });
    for (const tool of ['Bash', 'Agent', 'WebFetch', 'mcp__x__y']) expect((await can(tool, {})).behavior).toBe('deny');
    const loop = toLoopCanUseTool(can);
    expect(await loop('Delete', { file_path: path.join(memory, 'a.md') })).toEqual({ allow: true });
    expect(await loop('Bash', null)).toEqual({ allow: false, message: 'Bash is not available to the memory extractor' });
  });
});

/** Waits (up to 5 s, by time rather than by turns of the event loop: a loaded machine is slow) for `check`. */
async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 5_000;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
}
