import type { ChatSessionView, PermissionDecision } from '../../../common/domain/chat';
import type { Result } from '../../../common/result';
import { useStore, type View } from '../store';
import { api } from './index';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

/** Chat events from main reach the chat slice here, outside React. */
export function wireChatEvents(): () => void {
  const s = useStore.getState();
  const offs = [
    api.on['chat:did-update']((update) => s.applyUpdate(update)),
    api.on['chat:did-stream']((delta) => s.applyDelta(delta)),
    api.on['chat:did-request-permission']((request) => s.pushPermission(request)),
    api.on['chat:did-change-sessions'](({ project, sessions }) => s.setSessions(project, sessions)),
    api.on['notes:did-change']((notes) => s.setNotes(notes)),
    api.on['memory:did-change-proposals'](({ project, proposals }) => s.setProposals(project, proposals)),
  ];
  return () => offs.forEach((off) => off());
}

export async function loadSessions(project: string): Promise<void> {
  const sessions = take(await api.invoke['chat:list-sessions']({ project }));
  if (sessions) useStore.getState().setSessions(project, sessions);
}

/**
 * Where the user is when a conversation starts opening. Main may take seconds to answer (a slow disk, a
 * busy main); if by then the user opened another project or conversation, that newer choice stands; if
 * they went to another screen, the conversation waits in Chat for them instead of taking them back.
 */
export interface Departure {
  screen: View;
  project: string | null;
  ticket: number;
}

let departures = 0;

export function depart(): Departure {
  const s = useStore.getState();
  return { screen: s.view, project: s.activeProject, ticket: ++departures };
}

function arrive(view: ChatSessionView, from: Departure): void {
  const s = useStore.getState();
  s.putSessionView(view);
  if (from.ticket !== departures || s.activeProject !== from.project) return;
  s.setActiveSession(view.sessionId);
  if (s.view === from.screen) s.setScreen('chat');
}

export async function openSession(project: string, sessionId: string, from = depart()): Promise<void> {
  const view = take(await api.invoke['chat:open-session']({ project, sessionId }));
  if (view) arrive(view, from);
}

/**
 * The conversation an open project shows when none is chosen: its newest, else a new one. Made the
 * open one only while the user still has none: it never changes the screen, and a screen or a
 * conversation picked while main answers (a slow disk, a busy main) is the user's newer choice.
 */
export async function openDefaultSession(project: string, newest: string | undefined): Promise<void> {
  const view = take(await (newest ? api.invoke['chat:open-session']({ project, sessionId: newest }) : api.invoke['chat:new-session']({ project })));
  const s = useStore.getState();
  if (!view || s.activeProject !== project || s.activeSessionId !== null) return;
  s.putSessionView(view);
  s.setActiveSession(view.sessionId);
}

/** The open conversation read again from main (its transcript and live state), where it is shown. */
export async function refreshOpenSession(): Promise<void> {
  const { activeProject, activeSessionId, sessions } = useStore.getState();
  if (!activeProject || !activeSessionId || !sessions[activeProject]?.some((x) => x.sessionId === activeSessionId)) return;
  const result = await api.invoke['chat:open-session']({ project: activeProject, sessionId: activeSessionId });
  if (result.ok) useStore.getState().putSessionView(result.value);
}

export async function newSession(project: string): Promise<string | null> {
  const from = depart();
  return showNewSession(take(await api.invoke['chat:new-session']({ project })), from);
}

/** A conversation main just made, opened in Chat unless the user went elsewhere since `from`; its id, or null when main refused. */
export function showNewSession(view: ChatSessionView | null, from: Departure): string | null {
  if (!view) return null;
  arrive(view, from);
  return view.sessionId;
}

export async function sendMessage(project: string, sessionId: string, text: string): Promise<boolean> {
  return take(await api.invoke['chat:send']({ project, sessionId, text })) !== null;
}

/** Edit and resend: `text` replaces the question `replaces` as a new branch of the conversation. */
export async function editAndResend(project: string, sessionId: string, text: string, replaces: string): Promise<boolean> {
  return take(await api.invoke['chat:send']({ project, sessionId, text, replaces })) !== null;
}

/** Answers the newest question again; the earlier answer stays under it as an earlier version. */
export async function regenerateAnswer(project: string, sessionId: string): Promise<void> {
  take(await api.invoke['chat:regenerate']({ project, sessionId }));
}

/** Makes an earlier version of a turn the conversation again; the next message goes on from it. */
export async function continueBranch(project: string, sessionId: string, leafUuid: string): Promise<void> {
  take(await api.invoke['chat:continue-branch']({ project, sessionId, leafUuid }));
}

export async function stopSession(sessionId: string): Promise<void> {
  take(await api.invoke['chat:stop']({ sessionId }));
}

export async function compactSession(project: string, sessionId: string, instructions: string): Promise<boolean> {
  return take(await api.invoke['chat:compact']({ project, sessionId, ...(instructions.trim() ? { instructions } : {}) })) !== null;
}

export async function retrySession(project: string, sessionId: string): Promise<void> {
  take(await api.invoke['chat:retry']({ project, sessionId }));
}

export async function answerPermission(requestId: string, decision: PermissionDecision): Promise<void> {
  useStore.getState().dropPermission(requestId);
  take(await api.invoke['chat:answer-permission']({ requestId, decision }));
}

export async function renameSession(project: string, sessionId: string, title: string): Promise<void> {
  const sessions = take(await api.invoke['chat:rename-session']({ project, sessionId, title }));
  if (sessions) useStore.getState().setSessions(project, sessions);
}

/** Deletes a conversation (transcript and notes) with an Undo in the toast. */
export async function deleteSession(project: string, sessionId: string, title: string): Promise<void> {
  const done = take(await api.invoke['chat:delete-session']({ project, sessionId }));
  if (!done) return;
  const s = useStore.getState();
  // The list first: the chat then opens a conversation that still exists.
  await loadSessions(project);
  if (s.activeSessionId === sessionId) s.setActiveSession(null);
  s.showToast({
    text: `Deleted “${title}”.`,
    actionLabel: 'Undo',
    action: () => {
      void (async () => {
        const sessions = take(await api.invoke['chat:undo-delete']({ project, undoToken: done.undoToken }));
        if (sessions) useStore.getState().setSessions(project, sessions);
        useStore.getState().showToast(null);
      })();
    },
  });
}

export async function loadNotes(project: string, sessionId: string): Promise<void> {
  const notes = take(await api.invoke['notes:read']({ project, sessionId }));
  if (notes) useStore.getState().setNotes(notes);
}

export async function loadProposals(project: string): Promise<void> {
  const proposals = take(await api.invoke['memory:list-proposals']({ project }));
  if (proposals) useStore.getState().setProposals(project, proposals);
}

/** Accepts (as proposed, or with the user's edited text) or rejects a memory the extractor proposed. */
export async function resolveProposal(project: string, id: string, decision: 'accept' | 'reject', text?: string): Promise<boolean> {
  const proposals = take(await api.invoke['memory:resolve-proposal']({ project, id, decision, ...(text !== undefined ? { text } : {}) }));
  if (!proposals) return false;
  useStore.getState().setProposals(project, proposals);
  return true;
}

/** How "Save it now" ended: saved, or why not in the user's words. */
export type SaveOutcome = { saved: true } | { saved: false; why: string };

/** "Save it now" on a memory write refused for a secret the user marked "Not a secret": main makes the write it holds again. */
export async function saveRefusedWrite(project: string, sessionId: string, toolUseId: string): Promise<SaveOutcome> {
  const result = await api.invoke['chat:save-refused-write']({ project, sessionId, toolUseId });
  return result.ok ? { saved: true } : { saved: false, why: result.error.message };
}
