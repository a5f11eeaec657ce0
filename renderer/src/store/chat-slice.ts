import type { StateCreator } from 'zustand';
import type {
  ChatDelta,
  ChatSessionView,
  ChatUpdate,
  PermissionRequest,
  SessionNotes,
  SessionSummary,
} from '../../../common/domain/chat';
import { applyChatDelta, applyChatUpdate } from '../../../common/chat/apply-update';

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
  /** The conversation whose Compact dialog is open (its header's button or the command palette opened it). */
  compacting: string | null;
  setCompacting(sessionId: string | null): void;
  /** A search hit to scroll to and highlight once its conversation shows. */
  chatHit: { sessionId: string; term: string } | null;
  setChatHit(hit: { sessionId: string; term: string } | null): void;
  /** A transcript opened where its project is not open (a search hit, a link): shown read-only as its records. */
  rawTranscript: string | null;
  setRawTranscript(path: string | null): void;
  /**
   * Findings (by keyed hash) the user marked "Not a secret" in this window: every refused row of the same
   * value shows it as marked, not only the one clicked.
   */
  notSecret: string[];
  markNotSecret(fingerprint: string): void;
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

export const createChatSlice: StateCreator<ChatSlice> = (set) => ({
  sessions: {},
  activeSessionId: null,
  views: {},
  permissions: [],
  notes: {},
  notesOpen: true,
  compacting: null,
  setCompacting: (compacting) => set({ compacting }),
  chatHit: null,
  setChatHit: (chatHit) => set({ chatHit }),
  rawTranscript: null,
  setRawTranscript: (rawTranscript) => set({ rawTranscript }),
  notSecret: [],
  markNotSecret: (fingerprint) => set((s) => (s.notSecret.includes(fingerprint) ? {} : { notSecret: [...s.notSecret, fingerprint] })),
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
      return { ...dropped, views: { ...s.views, [update.sessionId]: applyChatUpdate(view, update) } };
    }),
  applyDelta: (delta) =>
    set((s) => {
      const view = s.views[delta.sessionId];
      if (!view) return {};
      return { views: { ...s.views, [delta.sessionId]: applyChatDelta(view, delta, new Date().toISOString()) } };
    }),
  pushPermission: (request) => set((s) => ({ permissions: [...s.permissions, request] })),
  dropPermission: (requestId) => set((s) => ({ permissions: s.permissions.filter((p) => p.requestId !== requestId) })),
});
