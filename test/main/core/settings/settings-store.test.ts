import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from '../../../../main/core/settings/settings-store.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

describe('SettingsStore', () => {
  it('starts from the defaults when there is no file', async () => {
    const store = SettingsStore.forVault(await tempDir(), testLogger().logger);
    const settings = await store.load();
    expect(settings).toMatchObject({ theme: 'system', baseUrl: null, projects: {} });
  });

  it('persists an update so a new store instance reads it back', async () => {
    const root = await tempDir();
    const first = SettingsStore.forVault(root, testLogger().logger);
    await first.load();
    await first.update({ theme: 'dark', baseUrl: 'http://127.0.0.1:9999' });
    const second = SettingsStore.forVault(root, testLogger().logger);
    expect(await second.load()).toMatchObject({ theme: 'dark', baseUrl: 'http://127.0.0.1:9999' });
    const stat = await fs.stat(path.join(root, '.strata', 'settings.json'));
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it('keeps every one of several updates sent at once, and an invalid one among them does not stop the next', async () => {
    const root = await tempDir();
    const store = SettingsStore.forVault(root, testLogger().logger);
    await store.load();
    const saves = [store.update({ memoryWrites: 'memory-tool' }), store.update({ baseUrl: 'not a url' }), store.update({ serverCompaction: true }), store.update({ memoryShape: 'metadata' })];
    const outcomes = await Promise.allSettled(saves);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const want = { memoryWrites: 'memory-tool', serverCompaction: true, memoryShape: 'metadata', baseUrl: null };
    expect(store.get()).toMatchObject(want);
    expect(await SettingsStore.forVault(root, testLogger().logger).load()).toMatchObject(want);
  });

  it('rejects an invalid update and leaves the file as it was', async () => {
    const root = await tempDir();
    const store = SettingsStore.forVault(root, testLogger().logger);
    await store.load();
    await store.update({ theme: 'light' });
    await expect(store.update({ baseUrl: 'not a url' })).rejects.toThrow();
    expect(store.get().theme).toBe('light');
    const onDisk = JSON.parse(await fs.readFile(path.join(root, '.strata', 'settings.json'), 'utf8'));
    expect(onDisk.baseUrl).toBeNull();
  });

  it.each([
    ['malformed JSON', '{ "theme": '],
    ['a wrong type', '{ "theme": 42 }'],
  ])('keeps a settings file with %s aside, uses defaults and warns', async (_label, content) => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, '.strata'));
    const file = path.join(root, '.strata', 'settings.json');
    await fs.writeFile(file, content);
    const log = testLogger();
    const settings = await SettingsStore.forVault(root, log.logger).load();
    expect(settings.theme).toBe('system');
    const names = await fs.readdir(path.join(root, '.strata'));
    const aside = names.find((n) => n.startsWith('settings.json.invalid-'));
    expect(aside).toBeDefined();
    expect(await fs.readFile(path.join(root, '.strata', aside!), 'utf8')).toBe(content);
    expect(log.entries.some((e) => e.level === 'warn')).toBe(true);
  });

  it('peeks for a command that only reads: an invalid file gives the defaults and stays where it is', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, '.strata'));
    await fs.writeFile(path.join(root, '.strata', 'settings.json'), '{"theme": 42}');
    expect((await SettingsStore.peek(root)).theme).toBe('system');
    expect(await fs.readdir(path.join(root, '.strata'))).toEqual(['settings.json']);
    await fs.writeFile(path.join(root, '.strata', 'settings.json'), '{"theme": "dark"}');
    expect((await SettingsStore.peek(root)).theme).toBe('dark');
  });
});
