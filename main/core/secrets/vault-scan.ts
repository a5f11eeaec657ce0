import { SecretAllowanceStore } from './allowances.js';
import type { Finding } from './secret-rule.js';

/**
 * The one secret scan of a vault (docs/memory.md#secret-scan): every rule, minus what the user marked
 * "Not a secret" there, each finding with its fingerprint (what "Not a secret" records) and its span
 * (what redaction blanks). Every memory writer's guard, the chat's record of a refused write and the
 * team push scan with it, so what one lets through the others do too.
 */
export function vaultSecretScan(vaultRoot: string): (text: string) => Finding[] {
  const allowances = SecretAllowanceStore.forVault(vaultRoot);
  return (text) => allowances.scan(text, { fingerprints: true, spans: true });
}
