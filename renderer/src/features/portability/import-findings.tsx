import { useState } from 'react';
import { bareImportItem, type ImportFinding, type ImportItem } from '../../../../common/domain/portability';
import { allowFinding } from '../../bridge/secrets-actions';

const PLACE: Record<ImportFinding['field'], (line: number) => string> = {
  name: () => 'in its name',
  description: () => 'in its description',
  text: (line) => `on line ${line} of its text`,
  header: (line) => `on line ${line} of the file's header`,
};

/** "GitHub personal access token, on line 1 of its text": what the scan found and where, never the value. */
export function describeImportFinding(f: ImportFinding): string {
  return `${f.label.charAt(0).toUpperCase()}${f.label.slice(1)}, ${PLACE[f.field](f.line)}`;
}

/**
 * What the secret scan found in one import item (docs/memory-upkeep.md "Bringing memory in"): kept out of
 * the import until each value is marked "Not a secret" (one value a mark, in the vault's list) or the
 * secrets are left out of it. `onResolved` gets the item as it may now be written.
 */
export function ImportFindings({ item, onResolved }: { item: ImportItem; onResolved: (item: ImportItem) => void }) {
  const [busy, setBusy] = useState(false);
  const findings = item.findings ?? [];
  const allow = async (f: ImportFinding) => {
    setBusy(true);
    const ok = await allowFinding(f.rule, f.fingerprint!, `memory import: ${item.fileName}`);
    setBusy(false);
    if (!ok) return;
    const rest = findings.filter((other) => other.fingerprint !== f.fingerprint);
    // With every value marked, the item is written as it is; until then, leaving the rest out still works.
    onResolved(rest.length ? { ...item, findings: rest } : bareImportItem(item));
  };
  const leaveOut = () => onResolved({ ...bareImportItem(item), ...item.withoutSecrets });
  return (
    <div className="import-findings" role="group" aria-label="Possible secrets">
      <p className="small">
        <strong className="warning-text">Kept out: this may hold a secret.</strong> Nothing of it is imported until you leave the secret out or say it is
        not one.
      </p>
      <ul className="small">
        {findings.map((f, i) => (
          <li key={`${f.rule}-${f.fingerprint ?? i}`}>
            {describeImportFinding(f)}{' '}
            {f.fingerprint && (
              <button type="button" className="link" disabled={busy} aria-label={`Not a secret: ${describeImportFinding(f)}`} onClick={() => void allow(f)}>
                Not a secret
              </button>
            )}
          </li>
        ))}
      </ul>
      {item.withoutSecrets && (
        <button type="button" className="button secondary" disabled={busy} onClick={leaveOut}>
          Leave the {findings.length === 1 ? 'secret' : 'secrets'} out and keep the rest
        </button>
      )}
    </div>
  );
}
