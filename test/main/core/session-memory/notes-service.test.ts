import { promises as fs } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultMemoryConfig } from '../../../../common/config.js';
import { SessionNotesService, SessionNotesUpdater, type ForkRunner } from '../../../../main/core/session-memory/index.js';
import { TranscriptBuilder } from '../../../fixtures/transcripts/transcript-builder.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

const usage = { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

async function setup() {
  const vault = await tempDir();
  const project = await tempDir();
  const updater = new SessionNotesUpdater({ vaultRoot: vault, config: defaultMemoryConfig.sessionMemory, clock: { now: () => 0 }, logger: testLogger().logger });
  return { vault, project, updater, service: new SessionNotesService(vault, updater) };
}

describe('SessionNotesService', () => {
  it('reads missing notes as not existing, then saves the user’s text', async () => {
    const { project, service } = await setup();
    const empty = await service.read(project, 's1');
    expect(empty).toMatchObject({ sessionId: 's1', exists: false, text: '', hash: null, updating: false });
    expect(empty.path).toMatch(/^projects\/.+\/s1\/session-memory\/summary\.md$/);
    const saved = await service.write(project, 's1', '# Mine\n', null);
    expect(saved).toMatchObject({ exists: true, text: '# Mine\n', hash: expect.stringMatching(/^sha256:/) });
  });

  it('refuses a save based on an older version', async () => {
    const { project, service } = await setup();
    const first = await service.write(project, 's1', 'one', null);
    expect((await service.write(project, 's1', 'two', first.hash)).text).toBe('two');
    await expect(service.write(project, 's1', 'three', first.hash)).rejects.toMatchObject({ name: 'AppFailure', code: 'conflict' });
    expect((await service.read(project, 's1')).text).toBe('two');
  });

  it('waits for a running update and then refuses to overwrite what it wrote', async () => {
    const { project, updater, service } = await setup();
    const loaded = await service.write(project, 's1', '# Worklog\n', null);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const fork: ForkRunner = async () => {
      started();
      await gate;
      const file = await updater.notesPath(project, 's1');
      await fs.writeFile(file, '# Worklog\n- by the updater\n');
      return { usage, cacheHitRatio: 0 };
    };
    const t = new TranscriptBuilder();
    t.user('x');
    const update = updater.updateNow({ sessionId: 's1', projectDir: project, records: t.records, fork });
    await running;
    expect((await service.read(project, 's1')).updating).toBe(true);
    const save = service.write(project, 's1', 'user text', loaded.hash);
    release();
    await update;
    await expect(save).rejects.toMatchObject({ code: 'conflict' });
    expect((await service.read(project, 's1')).text).toContain('- by the updater');
  });

  it('merges a save based on the version before an update with what the update wrote, when they changed different lines', async () => {
    const { project, updater, service } = await setup();
    const loaded = await service.write(project, 's1', '# Current State\nWorking on: the plan\n\n# Worklog\n- started\n', null);
    const fork: ForkRunner = async () => {
      await fs.writeFile(await updater.notesPath(project, 's1'), '# Current State\nWorking on: the plan\n\n# Worklog\n- started\n- read the sheet\n');
      return { usage, cacheHitRatio: 0 };
    };
    const t = new TranscriptBuilder();
    t.user('x');
    await updater.updateNow({ sessionId: 's1', projectDir: project, records: t.records, fork });
    // The user's edit, typed on the version before the update and saved after it (a panel closed, a page left).
    const saved = await service.write(project, 's1', '# Current State\nWorking on: the plan, and my own words\n\n# Worklog\n- started\n', loaded.hash);
    const both = '# Current State\nWorking on: the plan, and my own words\n\n# Worklog\n- started\n- read the sheet\n';
    expect(saved.text).toBe(both);
    expect(await fs.readFile(await updater.notesPath(project, 's1'), 'utf8')).toBe(both);
  });

  it('refuses a save on a base it never handed out when the notes are not that version', async () => {
    const { project, updater, service } = await setup();
    await service.write(project, 's1', 'one\n', null);
    await fs.writeFile(await updater.notesPath(project, 's1'), 'one\ntwo\n');
    await expect(service.write(project, 's1', 'zero\none\n', 'sha256:' + '0'.repeat(64))).rejects.toMatchObject({ code: 'conflict' });
    expect(await fs.readFile(await updater.notesPath(project, 's1'), 'utf8')).toBe('one\ntwo\n');
  });
});
