/**
 * The secret scanner (docs/memory.md#auto-memory): used on every agent write into a memory folder and by team
 * sync before a push. Findings name a rule and a line, never the value.
 */
import type { Finding } from './secret-rule.js';

export { scanText } from './scan-text.js';
export { redactFindings, redactValues, secretValues, REDACTED_SECRET } from './redact-text.js';
export { scanFile, scanPaths, type FileScanResult, type ScanFileOptions } from './scan-files.js';
export { secretRules } from './rules.js';
export { vaultSecretScan } from './vault-scan.js';
export { DamagedAllowancesError, SecretAllowanceStore, allowancesFile, isAllowanceFile, fingerprintPattern, type SecretAllowance } from './allowances.js';
export type { Finding, ScanOptions, SecretFamily, SecretRule } from './secret-rule.js';

/** "rule github-pat on line 3": the wording for messages to the model and the user. */
export function describeFinding(finding: Finding): string {
  return `rule ${finding.rule} on line ${finding.line}`;
}
