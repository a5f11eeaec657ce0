import type { TeamStatus } from '../../../common/domain/team';

/** A signed-in, synced project `/p` on acme/notes; tests override what they need. */
export const syncedStatus: TeamStatus = {
  project: '/p',
  repo: 'acme/notes',
  repoProblem: null,
  serverUrl: 'http://127.0.0.1:7420',
  signedIn: true,
  account: 'ana',
  phase: 'synced',
  progress: null,
  pending: 0,
  conflicts: [],
  blocked: [],
  tooLarge: [],
  invalidNames: [],
  lastSyncAt: '2026-12-03T08:00:00.000Z',
  error: null,
};
