import { useStoreShallow, useStore } from '../../store';

/** The vault pane: where memories live on disk, and (soon) the browser over them. */
export function VaultView() {
  const { info } = useStoreShallow((s) => ({ info: s.info }));
  return (
    <section className="empty-state" aria-labelledby="vault-heading">
      <h1 id="vault-heading">Vault</h1>
      <p className="lead">
        Everything Strata remembers is plain markdown in your vault folder. Instructions, session notes and
        project memories will be listed here as you chat.
      </p>
      <p>
        Vault folder: <code>{info?.vaultRoot ?? '…'}</code>
      </p>
      <button type="button" className="button secondary" onClick={() => useStore.getState().setScreen('settings')}>
        Change vault folder
      </button>
    </section>
  );
}
