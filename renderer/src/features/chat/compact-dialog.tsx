import { useEffect, useRef, useState } from 'react';
import { compactSession } from '../../bridge/chat-actions';

/**
 * "Compact now" (docs/memory.md#compaction): without instructions the session notes replace the older messages (no model
 * call); with instructions the summarizer follows them.
 */
export function CompactDialog({ project, sessionId, onClose }: { project: string; sessionId: string; onClose: () => void }) {
  const [instructions, setInstructions] = useState('');
  const [busy, setBusy] = useState(false);
  const areaRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => areaRef.current?.focus(), []);
  const submit = async () => {
    setBusy(true);
    const started = await compactSession(project, sessionId, instructions);
    setBusy(false);
    if (started) onClose();
  };
  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby="compact-heading" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        <h2 id="compact-heading">Compact this conversation</h2>
        <p className="muted">
          Older messages are replaced by the session notes, so the conversation can go on with room to spare. The full transcript stays on
          disk.
        </p>
        <label className="field">
          <span>Instructions for the summary (optional)</span>
          <textarea
            ref={areaRef}
            rows={3}
            value={instructions}
            placeholder="e.g. keep the decisions about the database schema"
            onChange={(e) => setInstructions(e.target.value)}
          />
        </label>
        <p className="muted small">With instructions, a summary is written by the model instead of using the notes.</p>
        <div className="row end">
          <button type="button" className="button ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" disabled={busy} onClick={() => void submit()}>
            Compact now
          </button>
        </div>
      </div>
    </div>
  );
}
