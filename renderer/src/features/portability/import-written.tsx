import type { ImportResult } from '../../../../common/domain/portability';
import { openFile } from '../../bridge/vault-actions';

function Files({ title, paths }: { title: string; paths: readonly string[] }) {
  if (paths.length === 0) return null;
  return (
    <>
      <p>
        {title} ({paths.length}):
      </p>
      <ul className="small">
        {paths.map((p) => (
          <li key={p}>
            <button type="button" className="link" onClick={() => void openFile(p)}>
              {p.split('/').pop()}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * What an import wrote, what was already in memory (an import run again writes nothing twice), and how
 * many the write's own scan kept out (they stay in the preview above, flagged).
 */
export function ImportWritten({ result }: { result: ImportResult }) {
  return (
    <div className="import-written" role="status">
      <Files title="Written" paths={result.written} />
      <Files title="Already in memory, not written again" paths={result.alreadyImported} />
      {result.heldBack.length > 0 && (
        <p className="small warning-text">
          {result.heldBack.length} kept out for a possible secret; {result.heldBack.length === 1 ? 'it is' : 'they are'} in the preview above.
        </p>
      )}
    </div>
  );
}
