import type { ReactNode } from 'react';
import './loading.css';

/** A short line with a spinner, announced politely to screen readers: work the user is waiting for. */
export function LoadingLine({ children, className = '' }: { children: ReactNode; className?: string }) {
  return (
    <p className={`loading-line muted small ${className}`.trim()} role="status">
      <span className="spinner" aria-hidden="true" />
      {children}
    </p>
  );
}
