import path from 'node:path';
import type { SafeStorage } from 'electron';
import type { CredentialStore } from '../core/ports.js';
import { readJsonFile, writeJsonAtomic } from '../core/fs/atomic-write.js';

/**
 * Fallback when no keyring answers: secrets encrypted with Electron's safeStorage (OS-bound key) in a
 * 0600 file in the app data folder. Plain text is never written.
 */
export class SafeStorageCredentialStore implements CredentialStore {
  readonly driver = 'safe-storage';
  private readonly file: string;

  constructor(
    private readonly safeStorage: SafeStorage,
    appDataDir: string,
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
    if (!this.safeStorage.isEncryptionAvailable()) throw new Error('No OS encryption is available to protect secrets.');
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
