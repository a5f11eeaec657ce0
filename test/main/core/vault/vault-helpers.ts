import { afterEach } from 'vitest';
import { defaultMemoryConfig, type MemoryConfig } from '../../../../common/config.js';
import type { VaultChange } from '../../../../common/domain/vault.js';
import type { Clock } from '../../../../main/core/ports.js';
import { Vault, type VaultOptions } from '../../../../main/core/vault/vault.js';
import { testLogger } from '../../../support/test-logger.js';

const open: Vault[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((v) => v.close()));
});

/** A settable clock for history retention tests. */
export function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')): Clock & { set(ms: number): void; advanceDays(d: number): void } {
  let now = start;
  return {
    now: () => now,
    set: (ms) => {
      now = ms;
    },
    advanceDays: (d) => {
      now += d * 86_400_000;
    },
  };
}

/** Opens a real vault (real chokidar) over `root`; closed after the test. */
export async function openVault(root: string, options: Partial<VaultOptions> & { configPatch?: Partial<MemoryConfig['vault']> } = {}) {
  const log = testLogger();
  const config: MemoryConfig = { ...structuredClone(defaultMemoryConfig) };
  config.vault = { ...config.vault, ...options.configPatch };
  const vault = new Vault({ root, clock: options.clock ?? { now: () => Date.now() }, logger: log.logger, config: () => config, ...options });
  open.push(vault);
  const changes: VaultChange[] = [];
  vault.onChanges((batch) => changes.push(...batch));
  await vault.open();
  await vault.whenWatching();
  return { vault, changes, log };
}

/** Waits until `predicate` holds over the changes seen so far (generous timeout, no timing asserts). */
export async function waitFor(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const memoryText = (name: string, description: string, body: string, type = 'project') =>
  `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`;
