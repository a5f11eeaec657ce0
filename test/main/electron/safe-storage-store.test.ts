import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../../main/core/auth/credential-store.js';
import { chooseCredentialStore, SafeStorageCredentialStore, type SafeStorageApi } from '../../../main/electron/safe-storage-store.js';
import { tempDir } from '../../support/temp-dir.js';
import { testLogger } from '../../support/test-logger.js';

/**
 * A stand-in for Electron's safeStorage (only present inside Electron): real AES-256-GCM under a key
 * that never leaves this object, with the Linux backend a test picks.
 */
function fakeSafeStorage(options: { available?: boolean; backend?: ReturnType<SafeStorageApi['getSelectedStorageBackend']> } = {}): SafeStorageApi {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString(plain: string) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(sealed: Buffer) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const SECRET = 'sk-ant-api03-never-in-a-file';
const noKeytar = async () => null;

describe('the desktop credential driver list', () => {
  it('uses the OS keychain when keytar loads', async () => {
    const keychain = new MemoryCredentialStore();
    const store = await chooseCredentialStore({ loadKeytar: async () => keychain, safeStorage: fakeSafeStorage(), appDataDir: await tempDir(), logger: testLogger().logger });
    expect(store).toBe(keychain);
  });

  it('falls back to safeStorage where it encrypts with an OS key: a 0600 file without the secret in it', async () => {
    const appData = await tempDir();
    const store = await chooseCredentialStore({ loadKeytar: noKeytar, safeStorage: fakeSafeStorage(), appDataDir: appData, logger: testLogger().logger, platform: 'linux' });
    expect(store.driver).toBe('safe-storage');
    await store.set('anthropic-api-key', SECRET);
    const file = path.join(appData, 'credentials.json');
    expect(await fs.readFile(file, 'utf8')).not.toContain(SECRET);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await store.get('anthropic-api-key')).toBe(SECRET);
    expect(await store.delete('anthropic-api-key')).toBe(true);
    expect(await store.get('anthropic-api-key')).toBeNull();
  });

  it.each([
    ["Linux's basic_text backend (a key fixed in Chromium's source)", { backend: 'basic_text' as const }],
    ['no OS encryption at all', { available: false }],
  ])('keeps secrets in memory only, and says so in the log, with %s', async (_label, options) => {
    const appData = await tempDir();
    const log = testLogger();
    const store = await chooseCredentialStore({ loadKeytar: noKeytar, safeStorage: fakeSafeStorage(options), appDataDir: appData, logger: log.logger, platform: 'linux' });
    expect(store.driver).toBe('memory');
    await store.set('anthropic-api-key', SECRET);
    expect(await store.get('anthropic-api-key')).toBe(SECRET);
    expect(await fs.readdir(appData)).toEqual([]);
    expect(log.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      'no OS keychain and no OS encryption: secrets entered now last only until Strata quits',
    ]);
    log.assertNoErrors();
  });

  it('refuses to write when the OS encryption went away, with an error a user can read', async () => {
    const appData = await tempDir();
    const store = new SafeStorageCredentialStore(fakeSafeStorage({ backend: 'basic_text' }), appData, 'linux');
    await expect(store.set('anthropic-api-key', SECRET)).rejects.toMatchObject({ code: 'unsupported', message: expect.stringContaining('no keychain') });
    expect(await fs.readdir(appData)).toEqual([]);
  });

  it('counts safeStorage as OS encryption on macOS and Windows, where basic_text does not exist', async () => {
    const store = await chooseCredentialStore({ loadKeytar: noKeytar, safeStorage: fakeSafeStorage({ backend: 'basic_text' }), appDataDir: await tempDir(), logger: testLogger().logger, platform: 'darwin' });
    expect(store.driver).toBe('safe-storage');
  });
});
