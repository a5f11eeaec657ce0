import { useEffect, useMemo, useRef } from 'react';
import { useStoreShallow, useStore } from '../../store';
import { Picker, type PickerItem } from '../../ui/picker';
import { openFile } from '../../bridge/vault-actions';
import { newSession } from '../../bridge/chat-actions';
import { saveSettings } from '../../bridge/actions';
import { useDisplayPath } from '../vault/project-label';
import { humanTitle } from '../vault/tree-rows';
import { useSessionTitles } from '../vault/file-name';
import { modLabel } from '../../ui/use-shortcuts';
import { openPortability } from '../portability/portability-panel';
import { openMemoryTable } from '../memory-table/memory-table';
import { newIncognitoSession } from '../memory-controls/incognito';
import { toggleMemoryPaused } from '../memory-controls/memory-pause';
import { useSessionCommands } from './session-commands';

function goVault(panel: 'search' | 'health' | 'file' | 'new' | 'deleted' | 'review') {
  const s = useStore.getState();
  s.setScreen('vault');
  s.setPanel(panel);
}

/**
 * While an overlay is open, remembers what had the keyboard before it; when the last overlay closes and
 * nothing else took the focus (a command that opens a form focuses that form), the focus goes back there.
 */
function useReturnFocus(open: boolean) {
  const before = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const remember = (event: FocusEvent) => {
      const target = event.target;
      if (target instanceof HTMLElement && !target.closest('.modal-backdrop')) before.current = target;
    };
    document.addEventListener('focusin', remember);
    return () => document.removeEventListener('focusin', remember);
  }, []);
  useEffect(() => {
    if (open) return;
    const target = before.current;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost && target?.isConnected) target.focus();
  }, [open]);
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
  useReturnFocus(overlay !== null);

  // Session notes go by their conversation's title, never by an id.
  const sessionTitles = useSessionTitles();
  const fileItems = useMemo<PickerItem[]>(
    () =>
      files.map((f) => ({
        id: f.path,
        label: humanTitle(f, sessionTitles),
        detail: shown(f.path),
        run: () => {
          useStore.getState().setScreen('vault');
          void openFile(f.path);
        },
      })),
    [files, shown, sessionTitles],
  );

  const sessionCommands = useSessionCommands();
  const commands = useMemo<PickerItem[]>(() => {
    const s = () => useStore.getState();
    const list: PickerItem[] = [
      { id: 'chat', label: 'Go to Chat', shortcut: `${modLabel}1`, run: () => s().setScreen('chat') },
      { id: 'vault', label: 'Go to Vault', shortcut: `${modLabel}2`, run: () => goVault('file') },
      { id: 'settings', label: 'Open Settings', shortcut: `${modLabel},`, run: () => s().setScreen('settings') },
      { id: 'open-folder', label: 'Open a project folder…', shortcut: `${modLabel}O`, run: () => s().setFolderChooserOpen(true) },
      { id: 'search', label: 'Search the vault', run: () => goVault('search') },
      { id: 'new-memory', label: 'New memory…', run: () => goVault('new') },
      { id: 'deleted', label: 'Recently deleted files', run: () => goVault('deleted') },
      { id: 'health', label: 'Vault health', run: () => goVault('health') },
      { id: 'import-memory', label: 'Import memory from ChatGPT, Claude or notes…', run: openPortability },
      { id: 'export-memory', label: 'Export memory…', run: openPortability },
      { id: 'memory-table', label: 'Memory table', run: openMemoryTable },
      { id: 'tidy-memory', label: 'Tidy memory (review the tidy-up in the Inbox)', run: () => goVault('review') },
      { id: 'switcher', label: 'Open a vault file…', shortcut: `${modLabel}P`, run: () => s().setOverlay('switcher') },
      {
        id: 'theme',
        label: `Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`,
        run: () => void saveSettings({ theme: theme === 'dark' ? 'light' : 'dark' }),
      },
    ];
    if (activeProject) list.splice(1, 0, { id: 'new-session', label: 'New conversation', shortcut: `${modLabel}N`, run: () => void newSession(activeProject) });
    if (activeProject) {
      list.splice(2, 0, { id: 'new-incognito', label: 'New incognito conversation (no memory)', run: () => void newIncognitoSession(activeProject) });
      list.push({ id: 'pause-memory', label: 'Pause or resume memory for this project', run: () => void toggleMemoryPaused(activeProject) });
    }
    return [...list, ...sessionCommands];
  }, [activeProject, theme, sessionCommands]);

  // A key per overlay: the switcher opened from the palette starts with an empty filter.
  if (overlay === 'switcher') return <Picker key="switcher" title="Open a vault file" placeholder="Type a file name…" items={fileItems} onClose={close} />;
  if (overlay === 'palette') return <Picker key="palette" title="Commands" placeholder="Type a command…" items={commands} onClose={close} />;
  return null;
}
