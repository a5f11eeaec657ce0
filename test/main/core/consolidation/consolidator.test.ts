import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { ChangesetStore, Consolidator, createConsolidationFork, LOCK_FILE, type ConsolidatorOptions } from '../../../../main/core/consolidation/index.js';
import { createLlmClient } from '../../../../main/core/llm/index.js';
import { ProjectPaths } from '../../../../main/core/paths/project-paths.js';
import { vaultSecretScan } from '../../../../main/core/secrets/index.js';
import { startFakeAnthropic, text, toolCalls, type FakeAnthropic } from '../../../fakes/anthropic-server/index.js';
import { tempDir } from '../../../support/temp-dir.js';
import { memoryText, openVault } from '../vault/vault-helpers.js';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 4, 9);

let fake: FakeAnthropic | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

const seeded: Record<string, string> = {
  'MEMORY.md': '- [Deadline](project_deadline.md) — launch deadline\n- [Deadline again](project_deadline_2.md) — launch deadline\n- [City](user_city.md) — where the user lives\n- [New city](user_city_new.md) — the move\n',
  'project_deadline.md': memoryText('Deadline', 'launch deadline', 'The launch is next Friday.'),
  'project_deadline_2.md': memoryText('Deadline again', 'launch deadline', 'Launch deadline: next Friday, no slip.'),
  'user_city.md': memoryText('City', 'where the user lives', 'Lives in Lisbon.', 'user'),
  'user_city_new.md': memoryText('New city', 'the move', 'Moved to Porto in November.', 'user'),
};
const merged = memoryText('Deadline', 'launch deadline (absolute date)', 'The launch is on 2026-12-11; no slip.');
const prunedIndex = '- [Deadline](project_deadline.md) — launch deadline (absolute date)\n- [New city](user_city_new.md) — the move\n';

async function setup(given: { sessions: number; autoApply?: boolean }) {
  const vaultRoot = await tempDir('strata-consolidate-vault-');
  const project = await tempDir('strata-consolidate-project-');
  const paths = await ProjectPaths.resolve(vaultRoot, project);
  await fs.mkdir(paths.memoryDir, { recursive: true });
  for (const [name, body] of Object.entries(seeded)) {
    await fs.writeFile(path.join(paths.memoryDir, name), body);
    await fs.utimes(path.join(paths.memoryDir, name), new Date(START - 72 * HOUR), new Date(START - 72 * HOUR));
  }
  await fs.mkdir(paths.transcriptsDir, { recursive: true });
  const touch = async (n: number, at: number) => {
    for (let i = 0; i < n; i++) {
      const file = path.join(paths.transcriptsDir, `s-${at}-${i}.jsonl`);
      await fs.writeFile(file, '{}\n');
      await fs.utimes(file, new Date(at), new Date(at));
    }
  };
  await touch(given.sessions, START - HOUR);
  const { vault } = await openVault(vaultRoot);
  fake = await startFakeAnthropic({ strict: true });
  const llm = createLlmClient({ getApiKey: async () => 'sk-test', baseURL: fake.url, model: 'claude-test' });
  let now = START;
  const clock = { now: () => now };
  const switches = { consolidation: true, autoApply: given.autoApply ?? false };
  const options: ConsolidatorOptions = {
    vault,
    memoryDir: paths.memoryDir,
    projectDir: paths.projectDir,
    transcriptsDirs: [paths.transcriptsDir],
    config: () => defaultMemoryConfig,
    switches: () => switches,
    clock,
    fork: createConsolidationFork({ llm, projectDir: paths.projectDir, memoryDirs: [paths.memoryDir] }),
    store: new ChangesetStore(vaultRoot),
    scan: vaultSecretScan(vaultRoot),
  };
  const consolidator = new Consolidator(options);
  return { options, vault, vaultRoot, dir: paths.memoryDir, consolidator, touch, switches, advance: (ms: number) => (now += ms), now: () => now };
}

/** The fake model plays the real one: reads the folder, then merges, fixes the date, deletes the contradicted fact and prunes the index. */
function scriptPass(dir: string) {
  const p = (name: string) => path.join(dir, name);
  fake!.enqueue(
    toolCalls(['MEMORY.md', 'project_deadline.md', 'project_deadline_2.md', 'user_city.md', 'user_city_new.md'].map((n) => ({ name: 'Read', input: { file_path: p(n) } }))),
    toolCalls([
      { name: 'Write', input: { file_path: p('project_deadline.md'), content: merged } },
      { name: 'Delete', input: { file_path: p('project_deadline_2.md') } },
      { name: 'Delete', input: { file_path: p('user_city.md') } },
      { name: 'Write', input: { file_path: p('MEMORY.md'), content: prunedIndex } },
    ]),
    text(
      'Done.\n- project_deadline.md: merged the two deadline notes and made "next Friday" 2026-12-11\n- project_deadline_2.md: duplicate of project_deadline.md\n- user_city.md: contradicted by user_city_new.md (moved to Porto)\n- MEMORY.md: dropped the lines of the removed files',
    ),
  );
}

const folder = async (dir: string) => {
  const out: Record<string, string> = {};
  for (const name of (await fs.readdir(dir)).sort()) if (name !== LOCK_FILE) out[name] = await fs.readFile(path.join(dir, name), 'utf8');
  return out;
};

describe('consolidation gates and lock', () => {
  it('waits for 5 sessions and 24 hours, holds every write as one changeset, and leaves the folder untouched', async () => {
    const t = await setup({ sessions: 4 });
    expect(await t.consolidator.maybeRun()).toEqual({ kind: 'skipped', reason: 'too-few-sessions' });
    await t.touch(1, START - HOUR / 2);
    scriptPass(t.dir);
    const outcome = await t.consolidator.maybeRun();
    expect(outcome.kind).toBe('proposed');
    expect(fake!.requests.map((r) => r.rejected)).toEqual([null, null, null]);
    expect(await folder(t.dir)).toEqual(seeded);
    const items = outcome.kind === 'proposed' ? outcome.changeset.items : [];
    expect(items.map((i) => [i.path.split('/').pop(), i.action, i.reason])).toEqual([
      ['project_deadline.md', 'updated', 'merged the two deadline notes and made "next Friday" 2026-12-11'],
      ['project_deadline_2.md', 'deleted', 'duplicate of project_deadline.md'],
      ['user_city.md', 'deleted', 'contradicted by user_city_new.md (moved to Porto)'],
      ['MEMORY.md', 'updated', 'dropped the lines of the removed files'],
    ]);
    expect(items[0]!.after).toContain('The launch is on 2026-12-11; no slip.');
    expect((await fs.stat(path.join(t.dir, LOCK_FILE))).mtimeMs).toBe(START);

    // Reviewed or not, the next pass waits 24 hours and 5 sessions touched after this one.
    await t.consolidator.resolve(outcomeId(outcome), { accept: [], reject: items.map((i) => i.id) });
    await t.touch(4, START + HOUR);
    t.advance(23 * HOUR);
    expect(await t.consolidator.maybeRun()).toEqual({ kind: 'skipped', reason: 'too-soon' });
    t.advance(2 * HOUR);
    expect(await t.consolidator.maybeRun()).toEqual({ kind: 'skipped', reason: 'too-few-sessions' });
    await t.touch(1, START + 2 * HOUR);
    t.switches.consolidation = false;
    expect(await t.consolidator.maybeRun()).toEqual({ kind: 'skipped', reason: 'disabled' });
    t.switches.consolidation = true;
    scriptPass(t.dir);
    expect((await t.consolidator.maybeRun()).kind).toBe('proposed');
  });

  it('runs one pass at a time: a held lock refuses a second pass until it goes stale after an hour', async () => {
    const t = await setup({ sessions: 5 });
    const held = { state: 'running', token: 'other-window', pid: 1, startedAt: START - 10 * 60_000, previousRunAt: null };
    await fs.writeFile(path.join(t.dir, LOCK_FILE), JSON.stringify(held));
    expect(await t.consolidator.runNow()).toEqual({ kind: 'skipped', reason: 'locked' });
    expect(fake!.requests).toHaveLength(0);
    t.advance(51 * 60_000);
    scriptPass(t.dir);
    expect((await t.consolidator.runNow()).kind).toBe('proposed');
    expect(JSON.parse(await fs.readFile(path.join(t.dir, LOCK_FILE), 'utf8'))).toEqual({ state: 'idle', lastRunAt: START + 51 * 60_000 });
    // A waiting changeset blocks the next pass: one changeset at a time.
    expect(await t.consolidator.runNow()).toEqual({ kind: 'skipped', reason: 'pending-review' });
  });

  it('keeps the last run when a pass fails, so the gates still say it is due', async () => {
    const t = await setup({ sessions: 5 });
    fake!.enqueue({ kind: 'error', status: 400, type: 'invalid_request_error', message: 'bad' });
    expect((await t.consolidator.maybeRun()).kind).toBe('failed');
    await expect(fs.stat(path.join(t.dir, LOCK_FILE))).rejects.toThrow();
    scriptPass(t.dir);
    expect((await t.consolidator.maybeRun()).kind).toBe('proposed');
  });
});

const outcomeId = (o: Awaited<ReturnType<Consolidator['runNow']>>) => (o.kind === 'proposed' ? o.changeset.id : '');

describe('applying a changeset', () => {
  it('applies the accepted items through the vault, keeps the rejected one, and merges the index over the deletes', async () => {
    const t = await setup({ sessions: 5 });
    scriptPass(t.dir);
    const outcome = await t.consolidator.runNow();
    const [deadline, duplicate, city, index] = outcome.kind === 'proposed' ? outcome.changeset.items : [];
    const after = await t.consolidator.resolve(outcomeId(outcome), { accept: [deadline!.id, duplicate!.id, index!.id], reject: [city!.id] });
    expect(after.items.map((i) => i.status)).toEqual(['applied', 'applied', 'rejected', 'applied']);
    expect(await folder(t.dir)).toEqual({
      // The pass dropped the City line with its delete; the delete was rejected, so the line stays.
      'MEMORY.md': '- [Deadline](project_deadline.md) — launch deadline (absolute date)\n- [New city](user_city_new.md) — the move\n- [City](user_city.md) — where the user lives\n',
      'project_deadline.md': merged,
      'user_city.md': seeded['user_city.md'],
      'user_city_new.md': seeded['user_city_new.md'],
    });
    const rel = path.relative(t.vaultRoot, path.join(t.dir, 'project_deadline.md'));
    const history = await t.vault.timeline(rel);
    expect(history[0]!.reason).toBe('consolidation');
    expect((await t.vault.readVersion(rel, history[0]!.hash)).text).toBe(seeded['project_deadline.md']);
  });

  it('leaves a file changed since the pass as it is and says so', async () => {
    const t = await setup({ sessions: 5 });
    scriptPass(t.dir);
    const outcome = await t.consolidator.runNow();
    const [deadline] = outcome.kind === 'proposed' ? outcome.changeset.items : [];
    const edited = seeded['project_deadline.md']!.replace('next Friday', 'on 2026-12-18');
    await fs.writeFile(path.join(t.dir, 'project_deadline.md'), edited);
    await expect(t.consolidator.resolve(outcomeId(outcome), { accept: [deadline!.id], reject: [] })).rejects.toThrow(/Changed since the tidy-up was proposed, so left as they are: .*project_deadline\.md/);
    expect(await fs.readFile(path.join(t.dir, 'project_deadline.md'), 'utf8')).toBe(edited);
    expect((await t.consolidator.pending())!.items[0]!.status).toBe('pending');
  });

  it('undoes an applied change: the rewrite and the delete come back as they were', async () => {
    const t = await setup({ sessions: 5, autoApply: true });
    scriptPass(t.dir);
    const outcome = await t.consolidator.runNow();
    const changeset = outcome.kind === 'proposed' ? outcome.changeset : null;
    expect(outcome.kind, JSON.stringify(outcome)).toBe('proposed');
    expect(changeset!.items.map((i) => i.status)).toEqual(['applied', 'applied', 'applied', 'applied']);
    await expect(fs.stat(path.join(t.dir, 'user_city.md'))).rejects.toThrow();
    const [deadline, , city] = changeset!.items;
    await t.consolidator.undo(changeset!.id, deadline!.id);
    const undone = await t.consolidator.undo(changeset!.id, city!.id);
    expect(await fs.readFile(path.join(t.dir, 'project_deadline.md'), 'utf8')).toBe(seeded['project_deadline.md']);
    expect(await fs.readFile(path.join(t.dir, 'user_city.md'), 'utf8')).toBe(seeded['user_city.md']);
    expect(undone.items.map((i) => i.status)).toEqual(['undone', 'applied', 'undone', 'applied']);
    await expect(t.consolidator.undo(changeset!.id, deadline!.id)).rejects.toThrow(/nothing to undo/);
  });

  it('undoes an applied delete after a restart, from history', async () => {
    const t = await setup({ sessions: 5, autoApply: true });
    scriptPass(t.dir);
    const outcome = await t.consolidator.runNow();
    const changeset = outcome.kind === 'proposed' ? outcome.changeset : null;
    await t.vault.close();
    const { vault: reopened } = await openVault(t.vaultRoot);
    const again = new Consolidator({ ...t.options, vault: reopened });
    await again.undo(changeset!.id, changeset!.items[2]!.id);
    expect(await fs.readFile(path.join(t.dir, 'user_city.md'), 'utf8')).toBe(seeded['user_city.md']);
    expect(await fs.readFile(path.join(t.dir, 'MEMORY.md'), 'utf8')).toContain('(user_city.md)');
  });
});

/**
 * Every file under `root` that holds `needle`. A write still landing (a history snapshot's temp file,
 * renamed between the listing and the read) makes the walk start again, so its result is not missed.
 */
async function filesHolding(root: string, needle: string): Promise<string[]> {
  for (let walk = 0; ; walk++) {
    const out: string[] = [];
    let vanished = false;
    for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (!entry.isFile()) continue;
      const text = await fs.readFile(file, 'latin1').catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' || walk >= 10) throw error;
        vanished = true;
        return '';
      });
      if (text.includes(needle)) out.push(file);
    }
    if (!vanished) return out;
  }
}

describe('a tidy pass and secrets', () => {
  const password = 'Xk9mQ2vL7pR4wzT8';
  const heldNote = memoryText('Staging database', 'how to reach it', 'host: db.staging\npassword: <TBD>', 'reference');

  it('refuses a change whose resulting file holds a secret (an Edit of <TBD> in "password: <TBD>"), even with auto-apply, and keeps it nowhere', async () => {
    const t = await setup({ sessions: 5, autoApply: true });
    const note = path.join(t.dir, 'reference_db.md');
    await fs.writeFile(note, heldNote);
    await fs.writeFile(path.join(t.options.projectDir, '.env'), `DB_PASSWORD=${password}\n`);
    fake!.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: path.join(t.options.projectDir, '.env') } }, { name: 'Read', input: { file_path: note } }, { name: 'Read', input: { file_path: path.join(t.dir, 'project_deadline.md') } }]),
      toolCalls([
        { name: 'Edit', input: { file_path: note, old_string: '<TBD>', new_string: password } },
        { name: 'Write', input: { file_path: note, content: heldNote.replace('<TBD>', password) } },
        { name: 'Write', input: { file_path: path.join(t.dir, 'project_deadline.md'), content: merged } },
      ]),
      text('Done.\n- project_deadline.md: merged'),
    );
    const outcome = await t.consolidator.runNow();
    expect(outcome.kind).toBe('proposed');
    const items = outcome.kind === 'proposed' ? outcome.changeset.items : [];
    expect(items.map((i) => [path.basename(i.path), i.status])).toEqual([['project_deadline.md', 'applied']]);
    expect(await fs.readFile(note, 'utf8')).toBe(heldNote);
    // The model was told both writes were refused, and why.
    const results = JSON.stringify(fake!.requests.at(-1)!.body.messages);
    expect(results.match(/denied: rule generic-password/g)).toHaveLength(2);
    expect(await filesHolding(t.vaultRoot, password)).toEqual([]);
  });

  it('scans a stored change again when it is accepted: refused and redacted, the other changes applied, and the answer says both', async () => {
    const t = await setup({ sessions: 5 });
    scriptPass(t.dir);
    const outcome = await t.consolidator.runNow();
    // A changeset stored before the guard (or before a rule that now finds it) holds a secret.
    const stored = (await t.options.store.load(t.dir))!;
    stored.items[0]!.after = `${merged}password: ${password}\n`;
    await t.options.store.save(t.dir, stored);
    const ids = outcome.kind === 'proposed' ? outcome.changeset.items.map((i) => i.id) : [];
    await expect(t.consolidator.resolve(outcomeId(outcome), { accept: ids, reject: [] })).rejects.toThrow(
      /^3 changes applied\. Not applied, since it would write a secret into memory: .*project_deadline\.md\.$/,
    );
    expect(await fs.readFile(path.join(t.dir, 'project_deadline.md'), 'utf8')).toBe(seeded['project_deadline.md']);
    expect((await t.consolidator.pending())!.items.map((i) => i.status)).toEqual(['rejected', 'applied', 'applied', 'applied']);
    expect(await filesHolding(t.vaultRoot, password)).toEqual([]);
  });
});

describe('a tidy pass and the index', () => {
  it('cannot delete MEMORY.md, even with auto-apply: the model is told so and the rest of the pass applies', async () => {
    const t = await setup({ sessions: 5, autoApply: true });
    const p = (name: string) => path.join(t.dir, name);
    fake!.enqueue(
      toolCalls([{ name: 'Read', input: { file_path: p('MEMORY.md') } }, { name: 'Read', input: { file_path: p('project_deadline.md') } }]),
      toolCalls([{ name: 'Delete', input: { file_path: p('MEMORY.md') } }, { name: 'Write', input: { file_path: p('project_deadline.md'), content: merged } }]),
      text('Done.\n- MEMORY.md: not needed\n- project_deadline.md: merged'),
    );
    const outcome = await t.consolidator.runNow();
    const items = outcome.kind === 'proposed' ? outcome.changeset.items : [];
    expect(items.map((i) => [path.basename(i.path), i.status])).toEqual([['project_deadline.md', 'applied']]);
    expect(await fs.readFile(p('MEMORY.md'), 'utf8')).toBe(seeded['MEMORY.md']);
    expect(JSON.stringify(fake!.requests.at(-1)!.body.messages)).toContain('MEMORY.md is the index of this memory folder and cannot be deleted');
  });

  it('refuses a stored deletion of MEMORY.md at accept, applies the rest, and says both', async () => {
    const t = await setup({ sessions: 5 });
    scriptPass(t.dir);
    const outcome = await t.consolidator.runNow();
    // A changeset stored before the refusal holds the index's deletion.
    const stored = (await t.options.store.load(t.dir))!;
    stored.items[3]!.after = null;
    await t.options.store.save(t.dir, stored);
    const ids = outcome.kind === 'proposed' ? outcome.changeset.items.map((i) => i.id) : [];
    await expect(t.consolidator.resolve(outcomeId(outcome), { accept: ids, reject: [] })).rejects.toThrow(/^3 changes applied\. Not applied, since MEMORY\.md cannot be deleted: .*\/MEMORY\.md\.$/);
    // Still there, with the lines of the files it indexes (the applied deletes took theirs out).
    expect(await fs.readFile(path.join(t.dir, 'MEMORY.md'), 'utf8')).toMatch(/\(project_deadline\.md\)[^]*\(user_city_new\.md\)/);
    expect((await t.consolidator.pending())!.items.map((i) => i.status)).toEqual(['applied', 'applied', 'applied', 'rejected']);
  });

  it('answers an Accept all with one stale item with how many were applied and which one was left', async () => {
    const t = await setup({ sessions: 5 });
    scriptPass(t.dir);
    const outcome = await t.consolidator.runNow();
    const edited = seeded['project_deadline.md']!.replace('next Friday', 'on 2026-12-18');
    await fs.writeFile(path.join(t.dir, 'project_deadline.md'), edited);
    const ids = outcome.kind === 'proposed' ? outcome.changeset.items.map((i) => i.id) : [];
    await expect(t.consolidator.resolve(outcomeId(outcome), { accept: ids, reject: [] })).rejects.toThrow(
      /^3 changes applied\. Changed since the tidy-up was proposed, so left as they are: [^,]*\/project_deadline\.md\. Reject those items, or edit the files in the vault\.$/,
    );
    expect(await fs.readFile(path.join(t.dir, 'project_deadline.md'), 'utf8')).toBe(edited);
    expect((await t.consolidator.pending())!.items.map((i) => i.status)).toEqual(['pending', 'applied', 'applied', 'applied']);
    await expect(fs.stat(path.join(t.dir, 'user_city.md'))).rejects.toThrow();
  });
});
