import type { ChatItem } from '../../../../common/domain/chat';
import { openFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';

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

/** docs/memory.md#compaction: before/after tokens, which path ran and why, what was kept, and the full transcript. */
export function CompactionDivider({ item }: { item: Extract<ChatItem, { kind: 'compaction' }> }) {
  const vaultRoot = useStore((s) => s.info?.vaultRoot ?? null);
  const rel = vaultRoot && item.transcriptPath.startsWith(`${vaultRoot}/`) ? item.transcriptPath.slice(vaultRoot.length + 1) : null;
  const how =
    item.path === 'session-notes' ? 'the session notes (no model call)' : item.path === 'server' ? 'a summary the API wrote on its side' : 'a summary written by the model';
  const why = item.reason ? `, because ${reasons[item.reason] ?? item.reason}` : '';
  const kept = item.keptMessages > 0 ? ` The last ${item.keptMessages} messages were kept word for word.` : '';
  return (
    <div className="compaction-divider" role="separator" aria-label="Conversation compacted">
      <span>
        Compacted {formatTokens(item.tokensBefore)} → {formatTokens(item.tokensAfter)} tokens using {how}
        {why}.{kept}{' '}
        {rel ? (
          <button
            type="button"
            className="link"
            onClick={() => {
              useStore.getState().setScreen('vault');
              void openFile(rel);
            }}
          >
            Open the full transcript
          </button>
        ) : (
          item.transcriptPath && (
            <>
              Full transcript: <code>{item.transcriptPath}</code>
            </>
          )
        )}
      </span>
    </div>
  );
}
