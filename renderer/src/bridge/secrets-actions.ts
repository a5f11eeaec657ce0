import type { SecretAllowanceView } from '../../../common/domain/secrets';
import type { Result } from '../../../common/result';
import { useStore } from '../store';
import { api } from './index';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

/** The vault's "Not a secret" list, for Settings. */
export async function listAllowances(): Promise<SecretAllowanceView[] | null> {
  return take(await api.invoke['secrets:list-allowances']({}));
}

let kinds: Promise<Record<string, string>> | null = null;

/** Each scanner rule's kind of secret in words, asked of main once. */
export function ruleKinds(): Promise<Record<string, string>> {
  // Kept once main answered; a failed ask is asked again next time.
  const asked = (kinds ??= api.invoke['secrets:rule-kinds']({}).then((r) => {
    if (r.ok) return r.value;
    kinds = null;
    return {};
  }));
  return asked;
}

/** "a GitHub personal access token", "an AWS access key": a rule's kind with its article, or "a possible secret" when unknown. */
export function kindInWords(kinds: Record<string, string>, rule: string): string {
  const kind = kinds[rule];
  return kind ? `${/^[AEIOU]/i.test(kind) ? 'an' : 'a'} ${kind}` : 'a possible secret';
}

/** Marks a refused memory write's finding (by rule and keyed hash) as not a secret. */
export async function allowFinding(rule: string, fingerprint: string, where: string): Promise<boolean> {
  return take(await api.invoke['secrets:allow']({ rule, fingerprint, where })) !== null;
}

/** Marks the one value `rule` finds at `line` (and `column`) of a vault file (a held-back team file) as not a secret. */
export async function allowInFile(path: string, at: { line: number; column?: number }, rule: string, where: string): Promise<boolean> {
  return take(await api.invoke['secrets:allow-in-file']({ path, ...at, rule, where })) !== null;
}

export async function revokeAllowance(id: string): Promise<SecretAllowanceView[] | null> {
  return take(await api.invoke['secrets:revoke-allowance']({ id }));
}
