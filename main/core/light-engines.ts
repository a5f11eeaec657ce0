import { SecretAllowanceStore } from './secrets/index.js';
import { VaultRootPointer } from './vault-root.js';

/**
 * The part of the composition root a command that must start fast builds from (docs/architecture.md#composition-root-contract-and-events):
 * it loads neither the vault nor the conversation engines, so `strata scan-secrets FILE` (run per file, or
 * as a git hook) starts about as fast as `strata --help`. `services.ts` re-exports both.
 */

/** The vault's "Not a secret" list (docs/memory.md#secret-scanning), read without loading the vault's settings. */
export function secretAllowances(vaultRoot: string): SecretAllowanceStore {
  return SecretAllowanceStore.forVault(vaultRoot);
}

/** The vault the app uses: the root its data folder points at, else that folder's default. */
export async function appVaultRoot(appDataDir: string): Promise<string> {
  return (await new VaultRootPointer(appDataDir).read()).root;
}
