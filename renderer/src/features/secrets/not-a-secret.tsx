import { useState } from 'react';
import { parseFindingRefs } from '../../../../common/domain/secrets';
import { allowFinding, allowInFile, kindInWords } from '../../bridge/secrets-actions';
import { useRuleKinds } from './rule-kinds';
import type { SaveOutcome } from '../../bridge/chat-actions';
import { syncNow } from '../../bridge/team-actions';
import { useStore } from '../../store';

/**
 * "Not a secret" on a refused memory write: one line per finding the refusal names (rule only — the value
 * is never shown). Marking one allows that value only, and shows as marked on every refused row of the
 * same value; once every finding of this write is marked, "Save it now" asks main to make the very write
 * it refused (docs/security.md#secrets-scanning). The agent cannot press either.
 */
export function RefusedFindings({ result, where, onSave }: { result: string; where: string; onSave?: () => Promise<SaveOutcome> }) {
  const refs = parseFindingRefs(result);
  const marked = useStore((s) => s.notSecret);
  const [save, setSave] = useState<'idle' | 'busy' | SaveOutcome>('idle');
  const kinds = useRuleKinds();
  if (refs.length === 0) return null;
  const allMarked = refs.every((ref) => marked.includes(ref.fingerprint));
  return (
    <div className="refused-findings" role="group" aria-label="Secrets found in this memory">
      {refs.map((ref) =>
        marked.includes(ref.fingerprint) ? (
          <p key={ref.fingerprint} className="ok-text small">
            Marked {kindInWords(kinds, ref.rule)} as not a secret: this value only, any other value is still held back. Revoke it in Settings.
          </p>
        ) : (
          <p key={ref.fingerprint} className="small">
            The memory was not saved: it holds what looks like {kindInWords(kinds, ref.rule)}.{' '}
            <button
              type="button"
              className="link"
              onClick={() => void allowFinding(ref.rule, ref.fingerprint, where).then((ok) => ok && useStore.getState().markNotSecret(ref.fingerprint))}
            >
              Not a secret
            </button>
          </p>
        ),
      )}
      {onSave && allMarked && (
        <SaveLine
          state={save}
          onSave={() => {
            setSave('busy');
            void onSave().then(setSave);
          }}
        />
      )}
      {onSave && !allMarked && marked.some((m) => refs.some((ref) => ref.fingerprint === m)) && (
        <p className="muted small">Mark the other finding too to save this memory, or ask Strata to leave it out.</p>
      )}
    </div>
  );
}

function SaveLine({ state, onSave }: { state: 'idle' | 'busy' | SaveOutcome; onSave: () => void }) {
  if (typeof state === 'object' && state.saved) return <p className="ok-text small" role="status">Saved. The memory is below, with Undo.</p>;
  return (
    <p className="small" role="status">
      {typeof state === 'object' && <span className="error-text">{state.why} </span>}
      <button type="button" className="button small" disabled={state === 'busy'} onClick={onSave}>
        {state === 'busy' ? 'Saving…' : typeof state === 'object' ? 'Try again' : 'Save it now'}
      </button>
    </p>
  );
}

/** "Not a secret" on a team file the scanner holds back: main re-scans the file and marks the one value there, then the push is retried. */
export function NotASecretInFile({ project, path, line, column, rule }: { project: string; path: string; line: number; column?: number; rule: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const kinds = useRuleKinds();
  if (state === 'done') return <span className="ok-text small" role="status">Marked as not a secret; syncing again.</span>;
  return (
    <button
      type="button"
      className="link"
      disabled={state === 'busy'}
      aria-label={`Not a secret: ${kindInWords(kinds, rule)} on line ${line}${column === undefined ? '' : `, column ${column}`}`}
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
