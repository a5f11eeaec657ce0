import type { StateCreator } from 'zustand';
import type {
  ChatDelta,
  ChatItem,
  ChatSessionView,
  ChatUpdate,
  PermissionRequest,
  SessionNotes,
  SessionSummary,
} from '../../../common/domain/chat';
import type { StoreState } from './index';

export interface ChatSlice {
  /** Sessions per project path, newest first. */
  sessions: Record<string, SessionSummary[]>;
  activeSessionId: string | null;
  /** Open sessions by id. */
  views: Record<string, ChatSessionView>;
  /** Writes waiting for the user's answer, oldest first. */
  permissions: PermissionRequest[];
  /** Session notes by session id, kept live from main. */
  notes: Record<string, SessionNotes>;
  notesOpen: boolean;
  setSessions(project: string, sessions: SessionSummary[]): void;
  setActiveSession(sessionId: string | null): void;
  putSessionView(view: ChatSessionView): void;
  applyUpdate(update: ChatUpdate): void;
  applyDelta(delta: ChatDelta): void;
  pushPermission(request: PermissionRequest): void;
  dropPermission(requestId: string): void;
  setNotes(notes: SessionNotes): void;
  setNotesOpen(open: boolean): void;
}

function upsert(items: ChatItem[], changes: ChatItem[]): ChatItem[] {
  const next = [...items];
  const index = new Map(next.map((item, i) => [item.id, i]));
  for (const change of changes) {
    const at = index.get(change.id);
    if (at === undefined) {
      index.set(change.id, next.length);
      next.push(change);
    } else {
      next[at] = change;
    }
  }
  return next;
}

export const createChatSlice: StateCreator<StoreState, [], [], ChatSlice> = (set) => ({
  sessions: {},
  activeSessionId: null,
  views: {},
  permissions: [],
  notes: {},
  notesOpen: true,
  setNotes: (notes) => set((s) => ({ notes: { ...s.notes, [notes.sessionId]: notes } })),
  setNotesOpen: (notesOpen) => set({ notesOpen }),
  setSessions: (project, sessions) => set((s) => ({ sessions: { ...s.sessions, [project]: sessions } })),
  setActiveSession: (activeSessionId) => set({ activeSessionId }),
  putSessionView: (view) => set((s) => ({ views: { ...s.views, [view.sessionId]: view } })),
  applyUpdate: (update) =>
    set((s) => {
      // A request its session no longer waits on (answered in another tab, stopped, deleted) leaves the screen.
      const permissions =
        update.phase === 'waiting-permission' ? s.permissions : s.permissions.filter((p) => p.sessionId !== update.sessionId);
      const dropped = permissions.length === s.permissions.length ? {} : { permissions };
      const view = s.views[update.sessionId];
      if (!view) return dropped;
      return {
        ...dropped,
        views: {
          ...s.views,
          [update.sessionId]: {
            ...view,
            items: upsert(view.items, update.upserts),
            phase: update.phase,
            error: update.error,
            context: update.context,
          },
        },
      };
    }),
  applyDelta: (delta) =>
    set((s) => {
      const view = s.views[delta.sessionId];
      if (!view) return {};
      const existing = view.items.find((i) => i.id === delta.itemId);
      const item: ChatItem =
        existing?.kind === 'assistant'
          ? { ...existing, text: existing.text + delta.text, streaming: true }
          : { kind: 'assistant', id: delta.itemId, text: delta.text, timestamp: new Date().toISOString(), streaming: true };
      return { views: { ...s.views, [delta.sessionId]: { ...view, items: upsert(view.items, [item]), phase: 'streaming' } } };
    }),
  pushPermission: (request) => set((s) => ({ permissions: [...s.permissions, request] })),
  dropPermission: (requestId) => set((s) => ({ permissions: s.permissions.filter((p) => p.requestId !== requestId) })),
});
