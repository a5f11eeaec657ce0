import { slug } from '../../../common/paths/slug';
import { useStore } from '../store';
import { selectProject } from './actions';
import { depart, openSession } from './chat-actions';

/** `projects/<project slug>/<session id>.jsonl`: a conversation's transcript in the vault. */
const TRANSCRIPT = /^projects\/([^/]+)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

export const isTranscriptPath = (rel: string): boolean => TRANSCRIPT.test(rel);

/**
 * A transcript is a conversation, never a file to edit: it opens in Chat (scrolled to `term`, the text
 * a search found, and highlighted there). False when no open project owns it; the caller shows it then.
 */
export async function openConversationFile(rel: string, term?: string): Promise<boolean> {
  const match = TRANSCRIPT.exec(rel);
  if (!match) return false;
  const [, projectSlug, sessionId] = match;
  const project = useStore.getState().projects.find((p) => slug(p.path) === projectSlug || p.memorySlug === projectSlug);
  if (!project) return false;
  // selectProject puts Chat on screen before its first await: leaving Chat from then on is the user's choice.
  const selecting = selectProject(project.path, sessionId!);
  const from = depart();
  await selecting;
  if (term?.trim()) useStore.getState().setChatHit({ sessionId: sessionId!, term: term.trim() });
  await openSession(project.path, sessionId!, from);
  return true;
}
