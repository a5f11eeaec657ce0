import { useStoreShallow } from '../../store';
import { SyncIndicator } from './sync-indicator';
import { LoadingLine } from './loading-line';

export function StatusBar() {
  const { connection, info, activeProject, credentials } = useStoreShallow((s) => ({
    connection: s.connection,
    info: s.info,
    activeProject: s.activeProject,
    credentials: s.credentials,
  }));
  const connectionText =
    connection === 'open' ? 'Connected' : connection === 'connecting' ? 'Connecting…' : 'Disconnected — reconnecting';
  return (
    <footer className="status-bar">
      <span role="status" className={`dot ${connection}`}>
        {connectionText}
      </span>
      <span className="muted status-path" title={info?.vaultRoot}>
        Vault: {info?.vaultRoot ?? '…'}
      </span>
      {activeProject && (
        <span className="muted status-path" title={activeProject}>
          Project: {activeProject}
        </span>
      )}
      {/* The projects and conversations work meanwhile; search, the vault's list and recall wait for it (docs/architecture.md#start). */}
      {info?.vaultState === 'opening' && <LoadingLine inline>Reading the vault…</LoadingLine>}
      <span className="spacer" />
      <SyncIndicator />
      {credentials?.apiKey === 'missing' && <span className="warning-text">No API key</span>}
      {info?.vaultState === 'root-missing' && (
        <span className="warning-text" role="alert">
          The vault folder is missing — reconnect it, or choose another in Settings
        </span>
      )}
      <span className="muted">Strata {info?.version ?? ''}</span>
    </footer>
  );
}
