import { useEffect } from 'react';
import { useStoreShallow, useStore } from '../../store';

const TOAST_MS = 8000;

/** A transient message at the bottom, with its action (Undo) while it shows. */
export function ToastHost() {
  const { toast } = useStoreShallow((s) => ({ toast: s.toast }));
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => useStore.getState().showToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!toast) return null;
  return (
    <div className="toast" role="status">
      <span>{toast.text}</span>
      {toast.action && (
        <button type="button" className="button secondary" onClick={toast.action}>
          {toast.actionLabel ?? 'Undo'}
        </button>
      )}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => useStore.getState().showToast(null)}>
        ×
      </button>
    </div>
  );
}
