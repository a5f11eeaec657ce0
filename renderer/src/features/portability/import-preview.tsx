import type { ImportItem, ImportPreview } from '../../../../common/domain/portability';
import type { MemoryType } from '../../../../common/domain/vault';
import { ImportFindings } from './import-findings';

const TYPES: { id: MemoryType; label: string }[] = [
  { id: 'user', label: 'About you' },
  { id: 'feedback', label: 'How to work' },
  { id: 'project', label: 'Project' },
  { id: 'reference', label: 'Reference' },
];

export interface PreviewRow {
  item: ImportItem;
  keep: boolean;
}

/** Rows for a preview's items: an item the scan flagged starts kept out. */
export const previewRows = (items: readonly ImportItem[]): PreviewRow[] => items.map((item) => ({ item, keep: !item.findings }));

/**
 * The import preview: each memory as it will be written, editable (name, kind, description, text) or
 * dropped. Editing a file kept verbatim (from an export) turns it into an edited memory. An item with a
 * possible secret is shown with the secret blanked, read-only and kept out, until the user settles it.
 */
export function ImportPreviewList({ preview, rows, onChange }: { preview: ImportPreview; rows: PreviewRow[]; onChange: (rows: PreviewRow[]) => void }) {
  const update = (i: number, patch: Partial<ImportItem> | { keep: boolean }) => {
    const next = rows.slice();
    const row = next[i]!;
    if ('keep' in patch) next[i] = { ...row, keep: patch.keep };
    else {
      const { verbatim: _dropped, ...rest } = row.item;
      next[i] = { ...row, item: { ...rest, ...patch } };
    }
    onChange(next);
  };
  const settle = (i: number, item: ImportItem) => {
    const next = rows.slice();
    next[i] = { item, keep: !item.findings };
    onChange(next);
  };
  return (
    <div className="import-preview">
      <ol className="import-items">
        {rows.map(({ item: real, keep }, i) => {
          const flagged = real.findings !== undefined;
          // What a flagged item shows: its fields with the values blanked, never the values.
          const item = flagged ? { ...real, ...real.withoutSecrets } : real;
          const locked = !keep || flagged;
          return (
          <li key={item.id} className={flagged ? 'import-item flagged' : keep ? 'import-item' : 'import-item dropped'} aria-label={item.name}>
            <div className="row">
              <label className="row small">
                <input type="checkbox" checked={keep} disabled={flagged} onChange={(e) => update(i, { keep: e.target.checked })} />
                Keep
              </label>
              <input
                className="input grow"
                aria-label="Name"
                value={item.name}
                disabled={locked}
                onChange={(e) => update(i, { name: e.target.value })}
              />
              <select className="input" aria-label="Kind" value={item.type} disabled={locked} onChange={(e) => update(i, { type: e.target.value as MemoryType })}>
                {TYPES.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.label}
                  </option>
                ))}
              </select>
            </div>
            <input
              className="input"
              aria-label="Description"
              value={item.description}
              disabled={locked}
              onChange={(e) => update(i, { description: e.target.value })}
            />
            <textarea
              className="input"
              aria-label="Text"
              rows={Math.min(4, item.body.split('\n').length + 1)}
              value={item.body}
              disabled={locked}
              onChange={(e) => update(i, { body: e.target.value })}
            />
            {flagged && <ImportFindings item={real} onResolved={(settled) => settle(i, settled)} />}
            <span className="muted small">
              {item.fileName}
              {item.verbatim !== undefined ? ' · kept exactly as it is' : ''}
            </span>
          </li>
          );
        })}
      </ol>
      {preview.skipped.length > 0 && (
        <details className="import-skipped">
          <summary className="small">
            {preview.skipped.length} {preview.skipped.length === 1 ? 'part was' : 'parts were'} not turned into memories
          </summary>
          <ul className="small muted">
            {preview.skipped.map((s, i) => (
              <li key={i}>
                “{s.what.length > 90 ? `${s.what.slice(0, 90)}…` : s.what}” — {s.why}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
