import { AppFailure } from '../../../common/result.js';
import type { CredentialStore } from '../ports.js';

export const SERVICE_NAME = 'Strata';
export const API_KEY_ACCOUNT = 'anthropic-api-key';

/** For tests and for machines with no keyring at all (then nothing outlives the process). */
export class MemoryCredentialStore implements CredentialStore {
  readonly driver = 'memory';
  private readonly secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }
}

/** The part of keytar's API the store uses (exported so tests can pass a failing keychain). */
export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** A keychain error as a value a user can read; the secret, if any, is cut out of the message. */
function keychainFailure(action: string, account: string, error: unknown, secret?: string): AppFailure {
  let detail = error instanceof Error ? error.message : String(error);
  if (secret) detail = detail.split(secret).join('[redacted]');
  return new AppFailure('io_error', `The OS keychain could not ${action} "${account}": ${detail.split('\n')[0]}`);
}

/** The OS keychain through keytar (Secret Service, macOS Keychain, Windows Credential Vault). */
export class KeytarCredentialStore implements CredentialStore {
  readonly driver = 'keytar';

  constructor(
    private readonly keytar: KeytarModule,
    private readonly service = SERVICE_NAME,
  ) {}

  async get(account: string): Promise<string | null> {
    try {
      return await this.keytar.getPassword(this.service, account);
    } catch (error) {
      throw keychainFailure('read', account, error);
    }
  }

  async set(account: string, secret: string): Promise<void> {
    try {
      await this.keytar.setPassword(this.service, account, secret);
    } catch (error) {
      // Native errors may echo their arguments; the secret must never reach a message or a log.
      throw keychainFailure('store', account, error, secret);
    }
  }

  async delete(account: string): Promise<boolean> {
    try {
      return await this.keytar.deletePassword(this.service, account);
    } catch (error) {
      throw keychainFailure('delete', account, error);
    }
  }
}

/**
 * keytar is an optional native dependency: load it lazily and prove the keyring answers before
 * choosing it. Returns null when it is missing or no keyring runs; the caller picks a fallback.
 */
export async function loadKeytarStore(service = SERVICE_NAME): Promise<KeytarCredentialStore | null> {
  try {
    const imported = (await import('keytar')) as unknown as KeytarModule & { default?: KeytarModule };
    const keytar = imported.default ?? imported;
    await keytar.getPassword(service, '__probe__');
    return new KeytarCredentialStore(keytar, service);
  } catch {
    return null;
  }
}
