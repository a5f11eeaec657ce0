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

interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The OS keychain through keytar (Secret Service, macOS Keychain, Windows Credential Vault). */
export class KeytarCredentialStore implements CredentialStore {
  readonly driver = 'keytar';

  constructor(
    private readonly keytar: KeytarModule,
    private readonly service = SERVICE_NAME,
  ) {}

  get(account: string): Promise<string | null> {
    return this.keytar.getPassword(this.service, account);
  }

  set(account: string, secret: string): Promise<void> {
    return this.keytar.setPassword(this.service, account, secret);
  }

  delete(account: string): Promise<boolean> {
    return this.keytar.deletePassword(this.service, account);
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
