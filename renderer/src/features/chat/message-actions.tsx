import { useState, type ReactNode } from 'react';

/** Copies `text` (the message's markdown) and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };
  return (
    <button type="button" className="button ghost small" aria-label={label} onClick={() => void copy()}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** The row of actions under a message; shown on hover and on keyboard focus (styles.css). */
export function MessageActions({ children }: { children: ReactNode }) {
  return (
    <div className="message-actions" role="toolbar" aria-label="Message actions">
      {children}
    </div>
  );
}
