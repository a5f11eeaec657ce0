import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useFocusTrap } from './use-focus-trap';

/**
 * The shell of a modal dialog: the backdrop, the dialog named by its heading (`labelledBy`, the
 * heading's id), Tab kept inside (useFocusTrap), and Escape as `onEscape` — closing it, or the answer
 * that means no. The content, its heading and where focus starts are the caller's.
 */
export function ModalDialog({
  className,
  role = 'dialog',
  labelledBy,
  describedBy,
  onEscape,
  stopEscape = false,
  trapFocus = true,
  onKeyDown,
  children,
}: {
  /** Classes besides `modal` (`wide`, or the dialog's own). */
  className?: string;
  /** `alertdialog` for a question that must be answered before anything else goes on. */
  role?: 'dialog' | 'alertdialog';
  labelledBy: string;
  describedBy?: string;
  onEscape: () => void;
  /** Escape goes no further: for a dialog opened from a panel that Escape closes too. */
  stopEscape?: boolean;
  /** False for a dialog that keeps Tab inside by its own `onKeyDown` and must not pull focus back from another modal. */
  trapFocus?: boolean;
  /** Keys other than Escape. */
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDivElement>(null);
  useFocusTrap(dialog, trapFocus);
  return (
    <div className="modal-backdrop">
      <div
        className={className ? `modal ${className}` : 'modal'}
        role={role}
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        ref={dialog}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return onKeyDown?.(e);
          if (stopEscape) e.stopPropagation();
          onEscape();
        }}
      >
        {children}
      </div>
    </div>
  );
}
