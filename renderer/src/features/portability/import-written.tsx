import type { ImportResult } from '../../../../common/domain/portability';
import { openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';

/** Each memory by its name (the file's title once the list is read again, else its file name), a link that opens it. */
function Memories({ title, paths }: { title: string; paths: readonly string[] }) {
  const files = useStore((s) => s.files);
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
              {files.find((f) => f.path === p)?.title ?? p.split('/').pop()!.replace(/\.md$/, '')}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * What an import wrote, what was already in memory (an import run again writes nothing twice), and how
 * many the write's own scan kept out (they stay in the preview above, flagged). Undo takes back the
 * whole import in one step; once undone, "Bring them back" restores it.
 */
export function ImportWritten({ result, undone, onUndo, onRedo }: { result: ImportResult; undone: boolean; onUndo: () => void; onRedo: () => void }) {
  return (
    <div className="import-written" role="status">
      {undone ? (
        <p>
          Import undone: {result.written.length === 1 ? 'the memory it wrote is' : `the ${result.written.length} memories it wrote are`} in Recently deleted.{' '}
          <button type="button" className="button ghost small" onClick={onRedo}>
            Bring {result.written.length === 1 ? 'it' : 'them'} back
          </button>
        </p>
      ) : (
        <>
          <Memories title="Written" paths={result.written} />
          {result.written.length > 0 && (
            <button type="button" className="button secondary small" onClick={onUndo}>
              Undo this import
            </button>
          )}
        </>
      )}
      <Memories title="Already in memory, not written again" paths={result.alreadyImported} />
      {result.heldBack.length > 0 && (
        <p className="small warning-text">
          {result.heldBack.length} kept out for a possible secret; {result.heldBack.length === 1 ? 'it is' : 'they are'} in the preview above.
        </p>
      )}
    </div>
  );
}
