import { useState } from 'react';
import type { Project } from '../../../../common/domain/app';
import { slug as folderSlug } from '../../../../common/paths/slug';
import { useStore } from '../../store';

/**
 * The file's full path on this computer, for when the user asks for it: paths are otherwise kept off
 * the screen (files go by their names). An opened project's own files live in the project folder.
 */
export function absolutePath(path: string, vaultRoot: string, projects: readonly Project[]): string {
  const match = /^@projects\/([^/]+)\/(.+)$/.exec(path);
  const project = match ? projects.find((p) => folderSlug(p.path) === match[1]) : undefined;
  if (project && match) return `${project.path.replace(/[\\/]+$/, '')}/${match[2]}`;
  return `${vaultRoot.replace(/[\\/]+$/, '')}/${path}`;
}

/** "Copy path": puts the full path on the clipboard and shows it, so it can also be selected by hand. */
export function CopyPathButton({ path }: { path: string }) {
  const [shown, setShown] = useState<string | null>(null);
  const copy = async () => {
    const s = useStore.getState();
    const full = absolutePath(path, s.info?.vaultRoot ?? '', s.projects);
    setShown(full);
    await navigator.clipboard?.writeText(full).catch(() => undefined);
  };
  return (
    <>
      <button type="button" className="button ghost" onClick={() => void copy()}>
        Copy path
      </button>
      {shown && (
        <output className="copied-path small" aria-label="File path">
          Copied: <code>{shown}</code>
        </output>
      )}
    </>
  );
}
