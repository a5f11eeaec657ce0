import { useEffect, useState } from 'react';
import type { SecretAllowanceView } from '../../../../common/domain/secrets';
import { kindInWords, listAllowances, revokeAllowance } from '../../bridge/secrets-actions';
import { useRuleKinds } from './rule-kinds';
import { formatDay } from '../../ui/dates';

/** Settings: the findings the user marked "Not a secret" in this vault, by kind of secret and place, each revocable. */
const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** “Deploy notes” in lighthouse: the memory and its project, never its path (that is the tooltip). */
const placeInWords = ({ place, where }: SecretAllowanceView) =>
  place ? `“${place.memory}”${place.project ? ` in ${place.project}` : ''}` : where;

const actions: Record<string, string> = { 'memory write': 'from a memory write', 'team push': 'from sharing with the team', 'memory import': 'from an import' };
const actionInWords = (action: string) => actions[action] ?? action;

export function AllowancesSection() {
  const [allowances, setAllowances] = useState<SecretAllowanceView[] | null>(null);
  const kinds = useRuleKinds();
  useEffect(() => {
    void listAllowances().then(setAllowances);
  }, []);
  return (
    <section className="card" aria-labelledby="allowances-heading">
      <h2 id="allowances-heading">Not a secret</h2>
      <p className="muted small">
        Findings of the secret scanner you said are harmless. Only the kind of secret and a fingerprint are kept, never the text itself. Revoke
        one and the scanner blocks that value again.
      </p>
      {allowances === null ? (
        <p className="muted small">Loading…</p>
      ) : allowances.length === 0 ? (
        <p className="muted small">None yet.</p>
      ) : (
        <ul className="plain-list" aria-label="Findings marked not a secret">
          {allowances.map((a) => (
            <li key={a.id}>
              {sentenceCase(kindInWords(kinds, a.rule))} — <span title={a.place?.path}>{placeInWords(a)}</span>{' '}
              <span className="muted small">
                ({a.place ? `${actionInWords(a.place.action)}, ` : ''}
                {formatDay(a.createdAt)})
              </span>{' '}
              <button type="button" className="button ghost" aria-label={`Revoke ${kindInWords(kinds, a.rule)} in ${placeInWords(a)}`} onClick={() => void revokeAllowance(a.id).then((next) => next && setAllowances(next))}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
