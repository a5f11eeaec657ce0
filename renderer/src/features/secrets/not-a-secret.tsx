import { useState } from 'react';
import { parseFindingRefs } from '../../../../common/domain/secrets';
import { allowFinding, allowInFile } from '../../bridge/secrets-actions';
import { syncNow } from '../../bridge/team-actions';

/**
 * "Not a secret" on a refused memory write: one button per finding the refusal names (rule only — the
 * value is never shown). Marking it lets the same write through next time; the agent cannot press it.
 */
export function RefusedFindings({ result, where }: { result: string; where: string }) {
  const refs = parseFindingRefs(result);
  const [marked, setMarked] = useState<Set<string>>(new Set());
  if (refs.length === 0) return null;
  return (
    <div className="refused-findings" role="group" aria-label="Secrets found in this memory">
      {refs.map((ref) =>
        marked.has(ref.fingerprint) ? (
          <p key={ref.fingerprint} className="ok-text small" role="status">
            Marked {ref.rule} as not a secret. Ask Strata to save the memory again; revoke it in Settings.
          </p>
        ) : (
          <p key={ref.fingerprint} className="small">
            The memory was not saved: it matched <code>{ref.rule}</code>.{' '}
            <button
              type="button"
              className="link"
              onClick={() => void allowFinding(ref.rule, ref.fingerprint, where).then((ok) => ok && setMarked(new Set([...marked, ref.fingerprint])))}
            >
              Not a secret
            </button>
          </p>
        ),
      )}
    </div>
  );
}

/** "Not a secret" on a team file the scanner holds back: main re-scans the file and marks the one value there, then the push is retried. */
export function NotASecretInFile({ project, path, line, column, rule }: { project: string; path: string; line: number; column?: number; rule: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  if (state === 'done') return <span className="ok-text small" role="status">Marked as not a secret; syncing again.</span>;
  return (
    <button
      type="button"
      className="link"
      disabled={state === 'busy'}
      aria-label={`Not a secret: ${rule} on line ${line}${column === undefined ? '' : `, column ${column}`}`}
      onClick={() => {
        setState('busy');
        void allowInFile(path, column === undefined ? { line } : { line, column }, rule, 'team push').then(async (ok) => {
          setState(ok ? 'done' : 'idle');
          if (ok) await syncNow(project);
        });
      }}
    >
      Not a secret
    </button>
  );
}
