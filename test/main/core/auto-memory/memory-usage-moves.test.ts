import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryUsageStore } from '../../../../main/core/auto-memory/index.js';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.js';
import { createHandlers } from '../../../../main/core/ipc/handlers.js';
import { createServices, type Services } from '../../../../main/core/services.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

let services: Services | null = null;
afterEach(async () => {
  await services?.close();
  services = null;
});

const memory = (name: string) => `---\nname: ${name}\ndescription: ${name} things\ntype: user\n---\n\n${name}.\n`;
const DAY = 86_400_000;

/** A vault with two memories, recall having used `user_role.md` twice and `user_tone.md` once. */
async function setUp(clock = { now: () => Date.UTC(2026, 11, 1, 9) }) {
  const log = testLogger();
  services = await createServices({ appDataDir: await tempDir(), vaultRoot: await tempDir(), shell: 'host', logger: log.logger, watch: false, clock });
  const vault = services.vault();
  await vault.ready;
  const dir = path.join(vault.root, 'projects', '-p', 'memory');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'user_role.md'), memory('Role'));
  await fs.writeFile(path.join(dir, 'user_tone.md'), memory('Tone'));
  await vault.files.open();
  const usage = MemoryUsageStore.forVault(vault.root, clock);
  await usage.record([path.join(dir, 'user_role.md'), path.join(dir, 'user_tone.md')], 'session-a');
  await usage.record([path.join(dir, 'user_role.md')], 'session-b');
  const dispatch = createDispatcher(createHandlers(services, 'host'), log.logger);
  const call = async (channel: string, payload: unknown) => {
    const result = await dispatch(channel, payload);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value as Record<string, unknown>;
  };
  const counts = async () => Object.fromEntries(Object.entries((await usage.all()).files).map(([rel, use]) => [rel, use.count]));
  return { call, counts, usage, log };
}

describe('use counts follow a memory (docs/memory.md#provenance-and-use)', () => {
  it('carries the count through a rename in the vault', async () => {
    const { call, counts, usage } = await setUp();
    const meta = await call('vault:rename', { path: 'projects/-p/memory/user_role.md', newFileName: 'user_job.md' });
    expect(meta.path).toBe('projects/-p/memory/user_job.md');
    expect(await counts()).toEqual({ 'projects/-p/memory/user_job.md': 2, 'projects/-p/memory/user_tone.md': 1 });
    expect((await usage.all()).files['projects/-p/memory/user_job.md']!.recent.map((r) => r.sessionId)).toEqual(['session-b', 'session-a']);
  });

  it('drops the count of a deleted memory from the list, and brings it back with Undo', async () => {
    const { call, counts } = await setUp();
    const { undoToken } = await call('vault:delete', { path: 'projects/-p/memory/user_role.md' });
    expect(await counts()).toEqual({ 'projects/-p/memory/user_tone.md': 1 });
    await call('vault:undo', { undoToken });
    expect(await counts()).toEqual({ 'projects/-p/memory/user_role.md': 2, 'projects/-p/memory/user_tone.md': 1 });
  });

  it('moves the count with a copy-then-delete move to team memory, and back with its Undo', async () => {
    const { call, counts } = await setUp();
    const from = 'projects/-p/memory/user_role.md';
    const to = 'projects/-p/memory/team/user_role.md';
    const { text } = await call('vault:read-file', { path: from });
    await call('vault:write-file', { path: to, text, baseHash: null });
    const { undoToken } = await call('vault:delete', { path: from });
    await call('memory:usage-move', { moves: [{ from, to }] });
    expect(await counts()).toEqual({ [to]: 2, 'projects/-p/memory/user_tone.md': 1 });
    // Undo, as the memory table does it: the original back, the copy deleted, the count moved back.
    await call('vault:undo', { undoToken });
    await call('vault:delete', { path: to });
    await call('memory:usage-move', { moves: [{ from: to, to: from }] });
    expect(await counts()).toEqual({ [from]: 2, 'projects/-p/memory/user_tone.md': 1 });
  });

  it('adds a moved count to one the new path already has', async () => {
    const { call, counts, usage } = await setUp();
    await call('memory:usage-move', { moves: [{ from: 'projects/-p/memory/user_tone.md', to: 'projects/-p/memory/user_role.md' }] });
    expect(await counts()).toEqual({ 'projects/-p/memory/user_role.md': 3 });
    expect((await usage.all()).files['projects/-p/memory/user_role.md']!.recent).toHaveLength(3);
  });

  it('forgets a deleted memory’s count once its Undo is long past', async () => {
    let now = Date.UTC(2026, 11, 1, 9);
    const { call, counts, usage } = await setUp({ now: () => now });
    const { undoToken } = await call('vault:delete', { path: 'projects/-p/memory/user_role.md' });
    now += 31 * DAY;
    await usage.record([path.join(services!.vault().root, 'projects/-p/memory/user_tone.md')], 'session-c');
    expect(JSON.parse(await fs.readFile(usage.file, 'utf8')).setAside).toEqual({});
    await call('vault:undo', { undoToken }).catch(() => undefined);
    expect((await counts())['projects/-p/memory/user_role.md']).toBeUndefined();
  });

  it('still deletes and undoes when the counts cannot be kept, and says so in the log', async () => {
    const { call, usage, log } = await setUp();
    // A folder where the count file should be: reading it fails, the counts cannot be updated.
    await fs.rm(usage.file);
    await fs.mkdir(usage.file);
    const { undoToken } = await call('vault:delete', { path: 'projects/-p/memory/user_role.md' });
    expect(typeof undoToken).toBe('string');
    await expect(fs.stat(path.join(services!.vault().root, 'projects/-p/memory/user_role.md'))).rejects.toThrow();
    await call('vault:undo', { undoToken });
    expect(await fs.readFile(path.join(services!.vault().root, 'projects/-p/memory/user_role.md'), 'utf8')).toBe(memory('Role'));
    expect(log.entries.filter((e) => e.message === 'could not update memory use counts')).toHaveLength(2);
  });

  it('refuses a move out of the vault', async () => {
    const { counts } = await setUp();
    const result = await createDispatcher(createHandlers(services!, 'host'), testLogger().logger)('memory:usage-move', { moves: [{ from: 'projects/-p/memory/user_role.md', to: '../outside.md' }] });
    expect(result.ok).toBe(false);
    expect(await counts()).toEqual({ 'projects/-p/memory/user_role.md': 2, 'projects/-p/memory/user_tone.md': 1 });
  });
});
