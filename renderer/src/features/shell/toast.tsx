import { useEffect, useState } from 'react';
import { useStoreShallow, useStore } from '../../store';

const TOAST_MS = 8000;

/**
 * A transient message at the bottom, with its action (Undo) while it shows. It stays while the pointer
 * or the keyboard is on it, so reaching Undo never races the timer.
 */
export function ToastHost() {
  const { toast } = useStoreShallow((s) => ({ toast: s.toast }));
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  // A new toast starts unheld: leaving an unmounted toast fires no mouseleave or blur.
  useEffect(() => {
    setHovered(false);
    setFocused(false);
  }, [toast]);
  useEffect(() => {
    if (!toast || held) return;
    const timer = setTimeout(() => useStore.getState().showToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast, held]);
  if (!toast) return null;
  return (
    <div
      className="toast"
      role="status"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setFocused(false)}
    >
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
