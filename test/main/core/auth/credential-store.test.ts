import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  KeytarCredentialStore,
  loadKeytarStore,
  MemoryCredentialStore,
  type KeytarModule,
} from '../../../../main/core/auth/credential-store.js';
import type { CredentialStore } from '../../../../main/core/ports.js';

const secret = () => `sk-ant-test-${randomBytes(16).toString('hex')}`;

/** The contract every driver keeps: store, read back, overwrite, delete, and read nothing after. */
async function roundTrip(store: CredentialStore, account: string) {
  const first = secret();
  const second = secret();
  expect(await store.get(account)).toBeNull();
  await store.set(account, first);
  expect(await store.get(account)).toBe(first);
  await store.set(account, second);
  expect(await store.get(account)).toBe(second);
  expect(await store.delete(account)).toBe(true);
  expect(await store.get(account)).toBeNull();
  expect(await store.delete(account)).toBe(false);
}

describe('MemoryCredentialStore', () => {
  it('stores, reads, overwrites and deletes secrets per account', async () => {
    const store = new MemoryCredentialStore();
    expect(store.driver).toBe('memory');
    await roundTrip(store, 'anthropic-api-key');
  });

  it('keeps accounts apart and two stores apart', async () => {
    const a = new MemoryCredentialStore();
    const b = new MemoryCredentialStore();
    await a.set('x', 'one');
    await a.set('y', 'two');
    expect(await a.get('x')).toBe('one');
    expect(await b.get('x')).toBeNull();
  });
});

describe('KeytarCredentialStore errors', () => {
  const failing = (message: (password?: string) => string): KeytarModule => ({
    getPassword: async () => {
      throw new Error(message());
    },
    setPassword: async (_s, _a, password) => {
      throw new Error(message(password));
    },
    deletePassword: async () => {
      throw new Error(message());
    },
  });

  it('never puts the secret in the error a failed store throws', async () => {
    const value = secret();
    const store = new KeytarCredentialStore(failing((p) => `Cannot create an item for password ${p ?? ''} (locked)`), 'strata-test');
    const error = (await store.set('anthropic-api-key', value).then(
      () => null,
      (e: unknown) => e,
    )) as Error & { code: string };
    expect(error.code).toBe('io_error');
    expect(error.message).toContain('could not store "anthropic-api-key"');
    expect(error.message).not.toContain(value);
    expect(String(error.stack)).not.toContain(value);
  });

  it('turns read and delete failures into io_error values with the account named', async () => {
    const store = new KeytarCredentialStore(failing(() => 'No such interface\nsecond line'), 'strata-test');
    await expect(store.get('acct')).rejects.toMatchObject({ code: 'io_error', message: expect.stringMatching(/could not read "acct": No such interface$/) });
    await expect(store.delete('acct')).rejects.toMatchObject({ code: 'io_error' });
  });
});

describe('KeytarCredentialStore against the real Secret Service', async () => {
  const service = `strata-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const store = await loadKeytarStore(service);
  const inKeyring = !!process.env.STRATA_IN_KEYRING;
  const reason = 'no Secret Service is reachable (run under scripts/with-services.sh for the real gnome-keyring)';
  const touched: string[] = [];

  afterEach(async () => {
    for (const account of touched.splice(0)) await store?.delete(account).catch(() => undefined);
  });

  it('is reachable whenever the test runs inside the keyring session', () => {
    if (inKeyring) expect(store, 'STRATA_IN_KEYRING is set but keytar could not reach the Secret Service').not.toBeNull();
  });

  it.skipIf(!store && !inKeyring)(`stores, reads and deletes a secret through loadKeytarStore() (skipped when ${reason})`, async () => {
    expect(store!.driver).toBe('keytar');
    const account = `acct-${randomBytes(4).toString('hex')}`;
    touched.push(account);
    await roundTrip(store!, account);
  });

  it.skipIf(!store && !inKeyring)(`keeps secrets of one service apart from another service (skipped when ${reason})`, async () => {
    const other = await loadKeytarStore(`${service}-other`);
    const account = `acct-${randomBytes(4).toString('hex')}`;
    touched.push(account);
    const value = secret();
    await store!.set(account, value);
    expect(await other!.get(account)).toBeNull();
    expect(await store!.get(account)).toBe(value);
  });
});
