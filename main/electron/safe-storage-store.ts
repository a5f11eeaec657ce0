import path from 'node:path';
import type { SafeStorage } from 'electron';
import { AppFailure } from '../../common/result.js';
import { MemoryCredentialStore } from '../core/auth/index.js';
import type { CredentialStore, Logger } from '../core/ports.js';
import { readJsonFile, writeJsonAtomic } from '../core/fs/index.js';

/** The part of Electron's safeStorage the fallback uses. */
export type SafeStorageApi = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>;

/**
 * Whether safeStorage really protects a secret with a key the OS keeps. On Linux without a keyring,
 * Chromium falls back to `basic_text`, a key fixed in its source: "encrypted" there is plain text to
 * anyone who reads the file, so it does not count.
 */
export function safeStorageProtects(safeStorage: SafeStorageApi, platform: NodeJS.Platform = process.platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = safeStorage.getSelectedStorageBackend();
  return backend !== 'basic_text' && backend !== 'unknown';
}

/**
 * Fallback when no keyring answers: secrets encrypted with Electron's safeStorage (OS-bound key) in a
 * 0600 file in the app data folder. Plain text is never written.
 */
export class SafeStorageCredentialStore implements CredentialStore {
  readonly driver = 'safe-storage';
  private readonly file: string;

  constructor(
    private readonly safeStorage: SafeStorageApi,
    appDataDir: string,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {
    this.file = path.join(appDataDir, 'credentials.json');
  }

  private async readAll(): Promise<Record<string, string>> {
    return ((await readJsonFile(this.file).catch(() => undefined)) as Record<string, string> | undefined) ?? {};
  }

  async get(account: string): Promise<string | null> {
    const sealed = (await this.readAll())[account];
    return sealed ? this.safeStorage.decryptString(Buffer.from(sealed, 'base64')) : null;
  }

  async set(account: string, secret: string): Promise<void> {
    if (!safeStorageProtects(this.safeStorage, this.platform)) {
      throw new AppFailure('unsupported', 'This system offers no keychain and no OS encryption to protect secrets.');
    }
    const all = await this.readAll();
    all[account] = this.safeStorage.encryptString(secret).toString('base64');
    await writeJsonAtomic(this.file, all, { mode: 0o600 });
  }

  async delete(account: string): Promise<boolean> {
    const all = await this.readAll();
    if (!(account in all)) return false;
    delete all[account];
    await writeJsonAtomic(this.file, all, { mode: 0o600 });
    return true;
  }
}

/**
 * The desktop app's credential driver list (STYLE.md, Joplin's KeychainService): the OS keychain
 * through keytar, else safeStorage where it truly encrypts, else memory — then a key lasts until the
 * app quits, Settings says so, and nothing weaker than the OS's protection is ever written to disk.
 */
export async function chooseCredentialStore(deps: {
  loadKeytar: () => Promise<CredentialStore | null>;
  safeStorage: SafeStorageApi;
  appDataDir: string;
  logger: Logger;
  platform?: NodeJS.Platform;
}): Promise<CredentialStore> {
  const keytar = await deps.loadKeytar();
  if (keytar) return keytar;
  const platform = deps.platform ?? process.platform;
  if (safeStorageProtects(deps.safeStorage, platform)) return new SafeStorageCredentialStore(deps.safeStorage, deps.appDataDir, platform);
  deps.logger.warn('no OS keychain and no OS encryption: secrets entered now last only until Strata quits');
  return new MemoryCredentialStore();
}
