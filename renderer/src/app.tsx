import { useEffect, useMemo } from 'react';
import { useStoreShallow, useStore } from './store';
import { Sidebar } from './features/shell/sidebar';
import { StatusBar } from './features/shell/status-bar';
import { ErrorBanner } from './features/shell/error-banner';
import { ChatView } from './features/chat/chat-view';
import { VaultView } from './features/vault/vault-view';
import { SettingsPage } from './features/settings/settings-page';
import { FolderChooser } from './features/projects/folder-chooser';
import { PermissionDialog } from './features/chat/permission-dialog';
import { RawTranscriptDialog } from './features/chat/raw-transcript-dialog';
import { ToastHost } from './features/shell/toast';
import { Overlays } from './features/shell/overlays';
import { newSession } from './bridge/chat-actions';
import { openProject } from './bridge/actions';
import { useShortcuts, type Shortcut } from './ui/use-shortcuts';
import { ScreenBoundary } from './ui/screen-boundary';

export function App() {
  const { view, theme, chooserOpen, rawTranscript } = useStoreShallow((s) => ({
    view: s.view,
    rawTranscript: s.rawTranscript,
    theme: s.settings?.theme ?? 'system',
    chooserOpen: s.folderChooserOpen,
  }));

  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);

  const shortcuts = useMemo<Shortcut[]>(() => {
    const s = () => useStore.getState();
    return [
      { keys: 'mod+1', run: () => s().setScreen('chat') },
      { keys: 'mod+2', run: () => s().setScreen('vault') },
      { keys: 'mod+,', run: () => s().setScreen('settings') },
      { keys: 'mod+o', run: () => s().setFolderChooserOpen(true) },
      { keys: 'mod+p', run: () => s().setOverlay('switcher') },
      { keys: 'mod+k', run: () => s().setOverlay('palette') },
      {
        keys: 'mod+n',
        run: () => {
          const project = s().activeProject;
          if (project) void newSession(project);
        },
      },
    ];
  }, []);
  useShortcuts(shortcuts);

  return (
    <div className="app">
      <Sidebar />
      <main className="main-pane" id="main" aria-label={`${view[0]!.toUpperCase()}${view.slice(1)}`}>
        <ErrorBanner />
        <ScreenBoundary key={view}>
          {view === 'chat' && <ChatView />}
          {view === 'vault' && <VaultView />}
          {view === 'settings' && <SettingsPage />}
        </ScreenBoundary>
      </main>
      <StatusBar />
      <PermissionDialog />
      <ToastHost />
      <Overlays />
      {rawTranscript && <RawTranscriptDialog path={rawTranscript} onClose={() => useStore.getState().setRawTranscript(null)} />}
      {chooserOpen && (
        <FolderChooser
          title="Open a project folder"
          onPick={openProject}
          onClose={() => useStore.getState().setFolderChooserOpen(false)}
        />
      )}
    </div>
  );
}
