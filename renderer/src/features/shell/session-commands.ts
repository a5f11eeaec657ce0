import { useMemo } from 'react';
import type { TeamStatus } from '../../../../common/domain/team';
import { useStore, useStoreShallow } from '../../store';
import type { PickerItem } from '../../ui/picker';
import { stopSession } from '../../bridge/chat-actions';
import { signIn, syncNow } from '../../bridge/team-actions';
import { isTurnRunning } from '../chat/turn-running';

const OPEN_PROJECT = 'Open a project first';

/** Why "Sync now" cannot run for this status, or null when it can (the team panel and Settings say the same). */
function syncProblem(status: TeamStatus | undefined): string | null {
  if (!status) return 'Reading the team memory state…';
  if (!status.serverUrl) return 'Set a team server in Settings first';
  if (!status.repo) return 'Set the project’s repository in Settings first';
  if (!status.signedIn) return 'Sign in to the team server first';
  if (status.phase === 'disabled') return 'Team memory sync is off for this project';
  if (status.phase === 'syncing') return 'Syncing now…';
  return null;
}

function signInProblem(status: TeamStatus | undefined): string | null {
  if (!status) return 'Reading the team memory state…';
  if (status.signedIn) return status.account ? `Signed in as ${status.account}` : 'Signed in already';
  if (!status.serverUrl) return 'Set a team server in Settings first';
  return null;
}

/**
 * The palette's commands for the open conversation and the project's memory: Compact, Stop, the Inbox,
 * Sync now and Sign in. Each runs what its button runs, and says why when it cannot run now.
 */
export function useSessionCommands(): PickerItem[] {
  const { project, sessionId, running, hasMessages, team, waiting } = useStoreShallow((s) => {
    const view = s.activeSessionId ? s.views[s.activeSessionId] : undefined;
    const open = view && view.projectPath === s.activeProject ? view : undefined;
    return {
      project: s.activeProject,
      sessionId: open?.sessionId ?? null,
      running: isTurnRunning(open?.phase),
      hasMessages: (open?.items.length ?? 0) > 0,
      team: s.activeProject ? s.team[s.activeProject] : undefined,
      waiting: s.activeProject ? (s.proposals[s.activeProject]?.length ?? 0) : 0,
    };
  });
  return useMemo(() => {
    const s = () => useStore.getState();
    const unless = (problem: string | null) => (problem ? { disabled: problem } : {});
    const inConversation = !project || !sessionId ? OPEN_PROJECT : null;
    return [
      {
        id: 'compact',
        label: 'Compact this conversation…',
        ...unless(inConversation ?? (!hasMessages ? 'Nothing to compact yet' : running ? 'Wait for the answer to finish' : null)),
        run: () => {
          s().setScreen('chat');
          s().setCompacting(sessionId);
        },
      },
      {
        id: 'stop',
        label: 'Stop the answer',
        ...unless(inConversation ?? (!running ? 'Nothing is running' : null)),
        run: () => void stopSession(sessionId!),
      },
      {
        id: 'inbox',
        label: 'Open the Inbox',
        ...(waiting > 0 ? { detail: `${waiting} waiting` } : {}),
        ...unless(project ? null : OPEN_PROJECT),
        run: () => {
          s().setScreen('vault');
          s().setPanel('review');
        },
      },
      {
        id: 'sync-now',
        label: 'Sync team memory now',
        ...unless(project ? syncProblem(team) : OPEN_PROJECT),
        run: () => void syncNow(project!),
      },
      {
        id: 'sign-in',
        label: 'Sign in to the team server',
        ...unless(project ? signInProblem(team) : OPEN_PROJECT),
        run: () => void signIn(project!),
      },
    ];
  }, [project, sessionId, running, hasMessages, team, waiting]);
}
