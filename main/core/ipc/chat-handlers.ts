import { AppFailure } from '../../../common/result.js';
import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';

type SessionChannel =
  | 'chat:list-sessions'
  | 'chat:new-session'
  | 'chat:new-incognito-session'
  | 'chat:open-session'
  | 'chat:before-compaction'
  | 'chat:rename-session'
  | 'chat:delete-session'
  | 'chat:undo-delete'
  | 'notes:read'
  | 'notes:write';

type TurnChannel = 'chat:approve-include' | 'memory:list-proposals' | 'memory:resolve-proposal' | 'chat:send' | 'chat:stop' | 'chat:compact' | 'chat:retry' | 'chat:regenerate' | 'chat:continue-branch' | 'chat:answer-permission' | 'chat:undo-memory' | 'chat:dont-remember' | 'chat:save-refused-write';

/** Conversations as documents: list, open, rename, delete with undo, and their notes. */
export function createSessionHandlers(services: Services): Pick<Handlers, SessionChannel> {
  const sessions = () => services.vault().sessions;
  return {
    'chat:list-sessions': ({ project }) => sessions().list(project),
    'chat:new-session': ({ project }) => sessions().create(project),
    'chat:new-incognito-session': ({ project }) => sessions().create(project, { incognito: true }),
    'chat:open-session': async ({ project, sessionId }) => {
      const view = await sessions().open(project, sessionId);
      // A conversation running in this process is opened as it is now, not as idle.
      const live = services.vault().chat.find(sessionId)?.live;
      return live ? { ...view, ...live } : view;
    },
    'chat:before-compaction': ({ project, sessionId, compactionId }) => sessions().beforeCompaction(project, sessionId, compactionId),
    'chat:rename-session': ({ project, sessionId, title }) => sessions().rename(project, sessionId, title),
    'chat:delete-session': async ({ project, sessionId }) => {
      await services.vault().chat.forget(sessionId);
      return sessions().delete(project, sessionId);
    },
    'chat:undo-delete': ({ project, undoToken }) => sessions().undoDelete(project, undoToken),
    'notes:read': ({ project, sessionId }) => services.vault().chat.engines.notesView.read(project, sessionId),
    'notes:write': async ({ project, sessionId, text, baseHash }) => {
      if (services.vault().transcripts.incognito.has(sessionId)) throw new AppFailure('invalid_request', 'An incognito conversation keeps no notes.');
      const saved = await services.vault().chat.engines.notesView.write(project, sessionId, text, baseHash);
      // A Session Title edited by hand names the conversation in the list at once.
      await sessions().announce(project);
      return saved;
    },
  };
}

/** Turns of the agent: send, stop, retry, the permission answer, and the memory cards' actions. */
export function createTurnHandlers(services: Services): Pick<Handlers, TurnChannel> {
  const chat = () => services.vault().chat;
  return {
    'chat:send': async ({ project, sessionId, text, replaces }) => {
      await chat().session(project, sessionId).send(text, replaces);
      return { accepted: true as const };
    },
    'chat:regenerate': async ({ project, sessionId }) => {
      await chat().session(project, sessionId).regenerate();
      return { accepted: true as const };
    },
    'chat:continue-branch': async ({ project, sessionId, leafUuid }) => {
      await chat().session(project, sessionId).continueFrom(leafUuid);
      return { accepted: true as const };
    },
    'chat:stop': async ({ sessionId }) => ({ stopped: (await chat().find(sessionId)?.stop()) ?? false }),
    'chat:approve-include': async ({ project, path }) => {
      await chat().approveInclude(project, path);
      return { approved: true as const };
    },
    'memory:list-proposals': ({ project }) => chat().proposals(project),
    'memory:resolve-proposal': ({ project, id, decision, text }) => chat().resolveProposal(project, id, decision, text),
    'chat:compact': async ({ project, sessionId, instructions }) => {
      await chat().session(project, sessionId).compact(instructions);
      return { accepted: true as const };
    },
    'chat:retry': async ({ project, sessionId }) => {
      await chat().session(project, sessionId).retry();
      return { accepted: true as const };
    },
    'chat:answer-permission': ({ requestId, decision }) => ({ answered: chat().answerPermission(requestId, decision) }),
    'chat:undo-memory': async ({ undoToken }) => ({ undone: await chat().undoMemory(undoToken) }),
    'chat:dont-remember': ({ project, sessionId, itemId }) => chat().dontRemember(project, sessionId, itemId),
    'chat:save-refused-write': async ({ project, sessionId, toolUseId }) => {
      await chat().session(project, sessionId).saveRefusedWrite(toolUseId);
      return { saved: true as const };
    },
  };
}
