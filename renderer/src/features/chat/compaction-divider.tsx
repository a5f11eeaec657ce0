import type { ChatItem } from '../../../../common/domain/chat';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { BeforeCompactionDialog } from './before-compaction-dialog';

const formatTokens = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

/** Why the session notes could not be used (docs/memory.md#compaction fallbacks), in words. */
const reasons: Record<string, string> = {
  'no-notes': 'there were no session notes yet',
  template: 'the session notes were still empty',
  'boundary-not-found': 'the notes did not say how far they reached',
  'over-threshold': 'the notes and kept messages would still have been too long',
  error: 'the notes could not be read',
  instructions: 'you gave instructions for the summary',
};

/**
 * docs/memory.md#compaction: before/after tokens, which path ran and why, what was kept, and what it
 * replaced — read-only, as the conversation was (the chat above shows it too, but the model no longer does).
 */
export function CompactionDivider({ item, project, sessionId }: { item: Extract<ChatItem, { kind: 'compaction' }>; project: string; sessionId: string }) {
  const [open, setOpen] = useState(false);
  const how =
    item.path === 'session-notes' ? 'the session notes Strata already keeps' : item.path === 'server' ? 'a summary the API wrote on its side' : 'a summary written by the model';
  const why = item.reason ? `, because ${reasons[item.reason] ?? item.reason}` : '';
  const kept = item.keptMessages > 0 ? ` The last ${item.keptMessages} messages were kept word for word.` : '';
  return (
    <div className="compaction-divider" role="separator" aria-label="Conversation compacted">
      <span>
        Compacted {formatTokens(item.tokensBefore)} → {formatTokens(item.tokensAfter)} tokens using {how}
        {why}.{kept}{' '}
        <button type="button" className="link" onClick={() => setOpen(true)}>
          Show what it replaced
        </button>
      </span>
      {/* Out of the conversation's row: a row is moved with a transform, which would hold a fixed overlay inside it. */}
      {open && createPortal(<BeforeCompactionDialog project={project} sessionId={sessionId} compactionId={item.id} onClose={() => setOpen(false)} />, document.body)}
    </div>
  );
}
