import { useEffect, useRef, type ReactNode } from 'react';
import { useFocusTrap } from './use-focus-trap';

/**
 * A wide modal that only shows something (a transcript, what a compaction replaced): its heading, its
 * content, and a footer of `actions` before Close. Focus starts on Close and stays inside; Escape closes.
 */
export function ReadOnlyDialog({ id, title, onClose, actions, children }: { id: string; title: string; onClose: () => void; actions?: ReactNode; children: ReactNode }) {
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useFocusTrap(dialog);
  useEffect(() => close.current?.focus(), []);
  return (
    <div className="modal-backdrop">
      <div className="modal wide" role="dialog" aria-modal="true" aria-labelledby={id} ref={dialog} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2 id={id}>{title}</h2>
        {children}
        <div className="row end">
          {actions}
          <button type="button" className="button primary" ref={close} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
