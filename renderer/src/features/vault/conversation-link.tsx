import { useCallback, useMemo } from 'react';
import { openConversationFile } from '../../bridge/open-conversation';
import { useStore } from '../../store';
import { useSessionTitles } from './file-name';

/**
 * A conversation named by its title, or null when the vault no longer holds it. Its transcript sits next
 * to the project's memory folder (`projects/<slug>/<session id>.jsonl`); the title comes from the vault's
 * file list, else from the loaded conversation lists.
 */
export function useConversationTitle(): (projectSlug: string | null, sessionId: string) => string | null {
  const files = useStore((s) => s.files);
  const titles = useSessionTitles();
  // By path, built once per file list: the memory table asks this for each of thousands of rows.
  const transcripts = useMemo(() => new Map(files.filter((f) => f.scope === 'transcript').map((f) => [f.path, f.title])), [files]);
  return useCallback(
    (projectSlug, sessionId) => {
      const transcript = projectSlug ? `projects/${projectSlug}/${sessionId}.jsonl` : null;
      if (!transcript) return null;
      return transcripts.get(transcript) ?? titles.get(sessionId) ?? null;
    },
    [transcripts, titles],
  );
}

/** Opens the conversation in Chat, or says why it cannot (its folder is not open). */
export async function openConversation(projectSlug: string, sessionId: string, title: string): Promise<void> {
  if (!(await openConversationFile(`projects/${projectSlug}/${sessionId}.jsonl`))) {
    useStore.getState().showError({ code: 'not_found', message: `“${title}” belongs to a folder that is not open. Open its folder to read it.` });
  }
}

/** “Title” as a link that opens the conversation. */
export function ConversationLink({ projectSlug, sessionId, title }: { projectSlug: string; sessionId: string; title: string }) {
  return (
    <button type="button" className="link" onClick={() => void openConversation(projectSlug, sessionId, title)}>
      “{title}”
    </button>
  );
}
