import { useStore, useStoreShallow } from '../../store';
import { resolveExternal, saveAsNewFile, saveNow } from '../../bridge/vault-autosave';
import { MergeEditor } from '../conflicts/merge-editor';
import type { VaultFile } from '../../../../common/domain/vault';

/**
 * Where the open file's autosave stands, in a few quiet words; a failed save says why, keeps the
 * text and offers to try again now (it also retries by itself).
 */
export function SaveStatus() {
  const { state, draft } = useStoreShallow((s) => ({ state: s.saveState, draft: s.draft }));
  if (state.kind === 'failed') {
    return (
      <div className="banner error save-failed" role="alert">
        <p>{state.message}</p>
        <div className="row">
          <button type="button" className="button secondary" onClick={() => void saveNow()}>
            Try again now
          </button>
          {state.retryInMs === null && draft !== null && (
            <button type="button" className="button primary" onClick={() => void saveAsNewFile()}>
              Save it as a new file
            </button>
          )}
        </div>
      </div>
    );
  }
  const words = state.kind === 'saving' ? 'Saving…' : state.kind === 'pending' ? 'Edited' : 'Saved';
  return (
    <span className="save-status muted small" role="status" aria-live="polite">
      {words}
    </span>
  );
}

/**
 * The file changed on disk while the user had unsaved edits that touch the same lines: their edits
 * (editable) beside the version on disk, changes marked, each change takeable from the disk side.
 */
export function ExternalChange({ theirs, mine }: { theirs: VaultFile; mine: string }) {
  return (
    <div className="banner warning external-change" role="alert">
      <p>
        <strong>This file changed on disk while you were editing the same lines.</strong> Your version is on the left, the one on
        disk on the right. Take changes from the right if you want them, then choose. Nothing is lost: the version you do not
        keep stays in History.
      </p>
      <MergeEditor docKey={theirs.hash} mine={mine} theirs={theirs.text} onResult={(text) => useStore.getState().setDraft(text)} />
      <div className="row">
        <button type="button" className="button secondary" onClick={() => void resolveExternal('theirs')}>
          Use the version on disk
        </button>
        <button type="button" className="button primary" onClick={() => void resolveExternal('mine')}>
          Keep my version
        </button>
      </div>
    </div>
  );
}
