import { useMemo } from 'react';
import { useStoreShallow, useStore } from '../../store';
import { Picker, type PickerItem } from '../../ui/picker';
import { openFile } from '../../bridge/vault-actions';
import { newSession } from '../../bridge/chat-actions';
import { saveSettings } from '../../bridge/actions';
import { useDisplayPath } from '../vault/project-label';

function goVault(panel: 'search' | 'health' | 'file' | 'new' | 'deleted') {
  const s = useStore.getState();
  s.setScreen('vault');
  s.setPanel(panel);
}

/** The quick switcher (Ctrl/Cmd+P) over vault files and the command palette (Ctrl/Cmd+K). */
export function Overlays() {
  const { overlay, files, activeProject, theme } = useStoreShallow((s) => ({
    overlay: s.overlay,
    files: s.files,
    activeProject: s.activeProject,
    theme: s.settings?.theme,
  }));
  const close = () => useStore.getState().setOverlay(null);
  const shown = useDisplayPath();

  const fileItems = useMemo<PickerItem[]>(
    () =>
      files.map((f) => ({
        id: f.path,
        label: f.title,
        detail: shown(f.path),
        run: () => {
          useStore.getState().setScreen('vault');
          void openFile(f.path);
        },
      })),
    [files, shown],
  );

  const commands = useMemo<PickerItem[]>(() => {
    const s = () => useStore.getState();
    const list: PickerItem[] = [
      { id: 'chat', label: 'Go to Chat', run: () => s().setScreen('chat') },
      { id: 'vault', label: 'Go to Vault', run: () => goVault('file') },
      { id: 'settings', label: 'Open Settings', run: () => s().setScreen('settings') },
      { id: 'open-folder', label: 'Open a project folder…', run: () => s().setFolderChooserOpen(true) },
      { id: 'search', label: 'Search the vault', run: () => goVault('search') },
      { id: 'new-memory', label: 'New memory…', run: () => goVault('new') },
      { id: 'deleted', label: 'Recently deleted files', run: () => goVault('deleted') },
      { id: 'health', label: 'Vault health', run: () => goVault('health') },
      { id: 'switcher', label: 'Open a vault file…', run: () => s().setOverlay('switcher') },
      {
        id: 'theme',
        label: `Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`,
        run: () => void saveSettings({ theme: theme === 'dark' ? 'light' : 'dark' }),
      },
    ];
    if (activeProject) list.splice(1, 0, { id: 'new-session', label: 'New conversation', run: () => void newSession(activeProject) });
    return list;
  }, [activeProject, theme]);

  if (overlay === 'switcher') return <Picker title="Open a vault file" placeholder="Type a file name…" items={fileItems} onClose={close} />;
  if (overlay === 'palette') return <Picker title="Commands" placeholder="Type a command…" items={commands} onClose={close} />;
  return null;
}
