import type { ChatSessionView } from '../../../../common/domain/chat';
import { api } from '../../bridge';
import { depart, openSession, showNewSession } from '../../bridge/chat-actions';
import { useStore, useStoreShallow } from '../../store';
import { MemoryPauseToggle } from './memory-pause';
import './memory-controls.css';

/** Starts a conversation that reads and writes no memory (docs/memory.md#pause-and-incognito) and opens it. */
export async function newIncognitoSession(project: string): Promise<string | null> {
  const from = depart();
  const result = await api.invoke['chat:new-incognito-session']({ project });
  if (!result.ok) useStore.getState().showError(result.error);
  return showNewSession(result.ok ? result.value : null, from);
}

/** Its first question, else "Incognito conversation" (it is in no list main keeps, so it is named here). */
export const incognitoTitle = (view: ChatSessionView) => view.items.find((i) => i.kind === 'user')?.text.slice(0, 80) || 'Incognito conversation';

/**
 * The sidebar's way in: "New incognito conversation", and this run's incognito conversations of the
 * project (they are not in the vault's list, and are gone when Strata quits).
 */
export function IncognitoSessions({ project }: { project: string }) {
  const { views, activeSessionId } = useStoreShallow((s) => ({ views: s.views, activeSessionId: s.activeSessionId }));
  const mine = Object.values(views).filter((v) => v.incognito && v.projectPath === project);
  return (
    <>
      <button type="button" className="button ghost full new-incognito" onClick={() => void newIncognitoSession(project)}>
        New incognito conversation
      </button>
      {mine.length > 0 && (
        <ul className="session-list" aria-label="Incognito conversations">
          {mine.map((v) => (
            <li key={v.sessionId} className="session-row">
              <button
                type="button"
                className="project-item"
                aria-current={v.sessionId === activeSessionId ? 'true' : undefined}
                onClick={() => void openSession(project, v.sessionId)}
              >
                <span className="badge incognito">Incognito</span> {incognitoTitle(v)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The chat header's memory state: "Incognito" with what it means, else the pause switch. */
export function MemoryStatus({ project, incognito }: { project: string; incognito: boolean }) {
  if (!incognito) return <MemoryPauseToggle project={project} />;
  return (
    <span className="badge incognito" title="This conversation reads no memory and saves none; it is gone when Strata quits.">
      Incognito<span className="sr-only"> — nothing is remembered</span>
    </span>
  );
}
