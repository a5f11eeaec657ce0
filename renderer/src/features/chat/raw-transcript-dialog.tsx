import { useEffect, useRef, useState } from 'react';
import { api } from '../../bridge';
import { useFocusTrap } from '../../ui/use-focus-trap';

/**
 * A conversation's transcript as it is on disk (Claude Code's JSONL, `path` in the vault), read-only, for
 * the curious: the chat is how it is read and continued, never by editing this text. A plain vault read,
 * so it opens for a project that is not open too.
 */
export function RawTranscriptDialog({ path, onClose }: { path: string; onClose: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useFocusTrap(dialog);
  useEffect(() => {
    close.current?.focus();
    void api.invoke['vault:read-file']({ path }).then((r) => (r.ok ? setText(r.value.text) : setProblem(r.error.message)));
  }, [path]);
  return (
    <div className="modal-backdrop">
      <div className="modal wide" role="dialog" aria-modal="true" aria-labelledby="raw-heading" ref={dialog} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2 id="raw-heading">Transcript (read-only)</h2>
        <p className="muted small">
          One JSON record a line, as Claude Code writes them (<code>{path}</code>). To change the conversation, open its project and edit or
          regenerate a message in the chat.
        </p>
        {problem ? <p className="error-text">{problem}</p> : <pre className="raw-transcript" tabIndex={0} aria-label="Transcript records">{text ?? 'Loading…'}</pre>}
        <div className="row end">
          <button type="button" className="button primary" ref={close} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
