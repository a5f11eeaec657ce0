import { useStoreShallow, useStore } from '../../store';

export function ErrorBanner() {
  const { error } = useStoreShallow((s) => ({ error: s.error }));
  if (!error) return null;
  return (
    <div className="banner error" role="alert">
      <span>{error.message}</span>
      <button type="button" className="button ghost" onClick={() => useStore.getState().showError(null)}>
        Dismiss
      </button>
    </div>
  );
}
