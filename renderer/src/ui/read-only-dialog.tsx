import { useEffect, useRef, type ReactNode } from 'react';
import { ModalDialog } from './modal-dialog';

/**
 * A wide modal that only shows something (a transcript, what a compaction replaced): its heading, its
 * content, and a footer of `actions` before Close. Focus starts on Close and stays inside; Escape closes.
 */
export function ReadOnlyDialog({ id, title, onClose, actions, children }: { id: string; title: string; onClose: () => void; actions?: ReactNode; children: ReactNode }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <ModalDialog className="wide" labelledBy={id} onEscape={onClose}>
      <h2 id={id}>{title}</h2>
      {children}
      <div className="row end">
        {actions}
        <button type="button" className="button primary" ref={close} onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
