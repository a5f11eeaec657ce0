import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';

type TeamChannel =
  | 'team:status'
  | 'team:sign-in'
  | 'team:sign-out'
  | 'team:sync-now'
  | 'team:list-deleted'
  | 'team:restore-deleted'
  | 'team:read-conflict'
  | 'team:resolve-conflict'
  | 'team:undo-keep-both';

/** Team memory (docs/memory.md#team-sync): sign-in, sync, and the conflict inbox of a project, over the team service. */
export function createTeamHandlers(services: Services): Pick<Handlers, TeamChannel> {
  const team = services.team;
  return {
    'team:status': ({ project }) => team.status(project),
    'team:sign-in': ({ project }) => team.signIn(project),
    'team:sign-out': ({ project }) => team.signOut(project),
    'team:sync-now': ({ project, confirmDeletions }) => team.syncNow(project, confirmDeletions === true),
    'team:list-deleted': ({ project }) => team.listDeleted(project),
    'team:restore-deleted': ({ project, key }) => team.restoreDeleted(project, key),
    'team:read-conflict': ({ project, key }) => team.readConflict(project, key),
    'team:resolve-conflict': ({ project, key, keep, text }) => team.resolveConflict(project, key, keep, text),
    'team:undo-keep-both': ({ project, key }) => team.undoKeepBoth(project, key),
  };
}
