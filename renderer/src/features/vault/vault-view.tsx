import { useStoreShallow, useStore } from '../../store';
import { useOpenFileMemory } from './open-file-memory';
import { modLabel } from '../../ui/use-shortcuts';
import { FileTree } from './file-tree';
import { FilePane } from './file-pane';
import { IndexView } from './index-view';
import { HistoryPanel } from './history-panel';
import { HealthPanel } from './health-panel';
import { SearchPanel } from './search-panel';
import { ConflictsPanel } from '../conflicts/conflicts-panel';
import { ReviewPanel } from './review-panel';
import { NewMemoryForm } from './new-memory-form';
import { DeletedPanel } from './deleted-panel';
import { PortabilityPanel } from '../portability/portability-panel';
import { MemoryTable } from '../memory-table/memory-table';

/** The vault: every memory, note and instruction as plain markdown, browsable like a notes app. */
export function VaultView() {
  const { info, panel, selectedPath, filesCount, loaded, inboxCount } = useStoreShallow((s) => ({
    info: s.info,
    panel: s.panel,
    selectedPath: s.selectedPath,
    filesCount: s.files.length,
    loaded: s.filesLoaded,
    inboxCount: s.activeProject ? (s.proposals[s.activeProject]?.length ?? 0) : 0,
  }));
  useOpenFileMemory(info?.vaultRoot);
  const s = useStore.getState();

  return (
    <div className="vault-layout">
      <aside className="vault-sidebar" aria-label="Vault">
        <div className="vault-tools">
          <button type="button" className="button primary" aria-pressed={panel === 'new'} onClick={() => s.setPanel('new')}>
            New memory
          </button>
          <button type="button" className="button ghost" aria-pressed={panel === 'search'} onClick={() => s.setPanel('search')}>
            Search
          </button>
          <button type="button" className="button ghost" aria-pressed={panel === 'health'} onClick={() => s.setPanel('health')}>
            Health
          </button>
          <button type="button" className="button ghost" aria-pressed={panel === 'conflicts'} onClick={() => s.setPanel('conflicts')}>
            Team
          </button>
          <button type="button" className="button ghost" aria-pressed={panel === 'review'} onClick={() => s.setPanel('review')}>
            Inbox{inboxCount > 0 ? ` (${inboxCount})` : ''}
          </button>
        </div>
        <FileTree />
        <button type="button" className="link small tree-footer" aria-pressed={panel === 'deleted'} onClick={() => s.setPanel('deleted')}>
          Recently deleted
        </button>
        <button type="button" className="link small tree-footer" aria-pressed={panel === 'table'} onClick={() => s.setPanel('table')}>
          Memory table
        </button>
        <button type="button" className="link small tree-footer" aria-pressed={panel === 'portability'} onClick={() => s.setPanel('portability')}>
          Import and export…
        </button>
      </aside>
      <div className="vault-main">
        {panel === 'new' && <NewMemoryForm />}
        {panel === 'search' && <SearchPanel />}
        {panel === 'health' && <HealthPanel />}
        {panel === 'conflicts' && <ConflictsPanel />}
        {panel === 'review' && <ReviewPanel />}
        {panel === 'index' && <IndexView />}
        {panel === 'history' && <HistoryPanel />}
        {panel === 'deleted' && <DeletedPanel />}
        {panel === 'portability' && <PortabilityPanel />}
        {panel === 'table' && <MemoryTable />}
        {panel === 'file' &&
          (selectedPath ? (
            <FilePane />
          ) : (
            <section className="empty-state compact" aria-labelledby="vault-heading">
              <h1 id="vault-heading">Vault</h1>
              <p className="lead">
                Everything Strata remembers is plain markdown in <code>{info?.vaultRoot ?? '…'}</code>.{' '}
                {loaded && filesCount === 0
                  ? 'Nothing is here yet: instructions, session notes and memories appear as you chat.'
                  : 'Choose a file on the left.'}
              </p>
              <p className="muted">
                <kbd>{modLabel}P</kbd> opens any file by name, <kbd>{modLabel}K</kbd> lists every command.
              </p>
            </section>
          ))}
      </div>
    </div>
  );
}
