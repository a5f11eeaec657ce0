import { useEffect, useState } from 'react';
import { api } from '../../bridge';
import { ReadOnlyDialog } from '../../ui/read-only-dialog';

/**
 * A conversation's transcript as it is on disk (Claude Code's JSONL, `path` in the vault), read-only, for
 * the curious: the chat is how it is read and continued, never by editing this text. A plain vault read,
 * so it opens for a project that is not open too.
 */
export function RawTranscriptDialog({ path, onClose }: { path: string; onClose: () => void }) {
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    void api.invoke['vault:read-file']({ path }).then((r) => (r.ok ? setText(r.value.text) : setProblem(r.error.message)));
  }, [path]);
  return (
    <ReadOnlyDialog id="raw-heading" title="Transcript (read-only)" onClose={onClose}>
      <p className="muted small">
        One JSON record a line, as Claude Code writes them (<code>{path}</code>). To change the conversation, open its project and edit or
        regenerate a message in the chat.
      </p>
      {problem ? <p className="error-text">{problem}</p> : <pre className="raw-transcript" tabIndex={0} aria-label="Transcript records">{text ?? 'Loading…'}</pre>}
    </ReadOnlyDialog>
  );
}
