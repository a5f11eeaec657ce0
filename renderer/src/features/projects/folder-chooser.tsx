import { useCallback, useEffect, useRef, useState } from 'react';
import type { DirListing } from '../../../../common/domain/app';
import { listDirs } from '../../bridge/actions';

/**
 * A folder picker that works in a browser tab (which cannot open a native dialog): one level at a
 * time, keyboard first. Enter on a folder opens it in the list; "Open this folder" picks it. With
 * `zips`, the `.zip` files of a folder are listed after its folders, and choosing one picks it.
 */
export function FolderChooser({
  title,
  zips = false,
  onPick,
  onClose,
}: {
  title: string;
  zips?: boolean;
  /** Resolves true when the choice was accepted (the chooser then closes). */
  onPick: (path: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const [listing, setListing] = useState<DirListing | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const dialogRef = useRef<HTMLDivElement>(null);
  const close = onClose;

  // Answers can arrive out of order, and the user may type while one is on its way (the first listing
  // of a slow start): only the newest request counts, and it never overwrites what was typed meanwhile.
  const requests = useRef(0);
  const edits = useRef(0);
  const load = useCallback(async (path?: string) => {
    const request = ++requests.current;
    const editsAtStart = edits.current;
    const result = await listDirs(path, zips);
    if (request !== requests.current) return;
    if (result.ok) {
      setListing(result.value);
      if (edits.current === editsAtStart) setTyped(result.value.path);
      setProblem(null);
    } else {
      setProblem(result.error.message);
    }
  }, [zips]);

  useEffect(() => {
    void load();
    dialogRef.current?.focus();
  }, [load]);

  const pick = async (path: string) => {
    if (await onPick(path)) close();
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="chooser-heading"
        tabIndex={-1}
        ref={dialogRef}
        onKeyDown={(e) => e.key === 'Escape' && close()}
      >
        <h2 id="chooser-heading">{title}</h2>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void load(typed);
          }}
        >
          <label className="sr-only" htmlFor="chooser-path">
            Folder path
          </label>
          <input id="chooser-path" className="input grow" value={typed} onChange={(e) => {
              edits.current += 1;
              setTyped(e.target.value);
            }}
          />
          <button type="submit" className="button secondary">
            Go
          </button>
        </form>
        {problem && (
          <p className="error-text" role="alert">
            {problem}
          </p>
        )}
        <div className="row">
          <button
            type="button"
            className="button ghost"
            disabled={!listing?.parent}
            onClick={() => listing?.parent && void load(listing.parent)}
          >
            ↑ Up
          </button>
          <button type="button" className="button ghost" onClick={() => listing && void load(listing.home)}>
            Home
          </button>
        </div>
        <ul className="dir-list" aria-label={zips ? 'Folders and zips' : 'Folders'}>
          {listing?.entries.length === 0 && <li className="muted small">{zips ? 'No folders or zips here.' : 'No folders here.'}</li>}
          {listing?.entries.map((entry) => (
            <li key={entry.path}>
              <button type="button" className="dir-item" onClick={() => void (entry.zip ? pick(entry.path) : load(entry.path))}>
                {entry.zip ? (
                  <>
                    {entry.name} <span className="muted small">· choose this zip</span>
                  </>
                ) : (
                  `📁 ${entry.name}`
                )}
              </button>
            </li>
          ))}
        </ul>
        <div className="row end">
          <button type="button" className="button ghost" onClick={close}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={!listing} onClick={() => listing && void pick(listing.path)}>
            Open this folder
          </button>
        </div>
      </div>
    </div>
  );
}
