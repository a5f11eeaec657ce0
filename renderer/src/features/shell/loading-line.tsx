import type { ReactNode } from 'react';
import './loading.css';

/**
 * A short line with a spinner: work the user is waiting for. On its own it is a polite status for screen
 * readers; `inline` (inside a bar that already announces) it is only shown.
 */
export function LoadingLine({ children, className = '', inline = false }: { children: ReactNode; className?: string; inline?: boolean }) {
  const content = (
    <>
      <span className="spinner" aria-hidden="true" />
      {children}
    </>
  );
  if (inline) return <span className={`loading-line muted ${className}`.trim()}>{content}</span>;
  return (
    <p className={`loading-line muted small ${className}`.trim()} role="status">
      {content}
    </p>
  );
}
