import { useEffect } from 'react';
import { openFile } from '../../bridge/vault-actions';
import { loadFiles } from '../../bridge/vault-list';
import { useStore } from '../../store';

/** The vault file open in this tab, kept per tab (sessionStorage) so a reload reopens it. */
const KEY = 'strata.vault-open-file';

const stored = (): string | null => {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
};

/**
 * Lists the vault's files and, on the first load of the tab, reopens the file that was open before a reload
 * when it still exists; from then on, keeps whichever file the user opens.
 */
export function useOpenFileMemory(vaultRoot: string | undefined): void {
  useEffect(() => {
    void loadFiles().then(() => {
      const s = useStore.getState();
      const path = stored();
      if (path && !s.selectedPath && s.files.some((f) => f.path === path)) void openFile(path);
    });
  }, [vaultRoot]);
  useEffect(
    () =>
      useStore.subscribe((s, prev) => {
        if (s.selectedPath === prev.selectedPath && s.panel === prev.panel) return;
        try {
          if (s.selectedPath && s.panel === 'file') sessionStorage.setItem(KEY, s.selectedPath);
          else if (prev.selectedPath && !s.selectedPath) sessionStorage.removeItem(KEY);
        } catch {
          // Not kept: a reload then opens no file, nothing else is lost.
        }
      }),
    [],
  );
}
