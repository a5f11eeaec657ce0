import type { ApiFailure } from './team-api.js';
import type { SyncError } from './sync-types.js';

/** Worth another try after a wait: the network, 429 (Retry-After) and 5xx (docs/memory.md#team-sync: backoff with jitter). */
export function isRetriable(result: { kind: string; status?: number }): boolean {
  if (result.kind === 'network') return true;
  return result.kind === 'http' && result.status !== undefined && (result.status === 429 || result.status >= 500);
}

/** The user-facing error of a failed call: a code the UI switches on and a sentence. */
export function failureToError(failure: ApiFailure | { kind: string }): SyncError {
  const f = failure as ApiFailure;
  if (f.kind === 'cancelled') return { code: 'cancelled', message: 'the sync was stopped; changes stay pending and go at the next sync' };
  if (f.kind === 'network') return { code: 'offline', message: `offline — changes stay pending (${f.message})` };
  if (f.kind === 'malformed') return { code: 'server', message: f.message };
  if (f.kind !== 'http') return { code: 'server', message: 'unexpected answer from the team server' };
  if (f.status === 401) return { code: 'auth', message: `${f.message}: sign in to the team server again` };
  if (f.status === 403) return { code: 'forbidden', message: 'this account is not a member of the repository on the team server' };
  if (f.status === 413 && f.maxEntries) {
    return { code: 'too_many_entries', message: `the team server takes at most ${f.maxEntries} files for this repository` };
  }
  if (f.status === 412 || f.status === 428) return { code: 'contention', message: 'the team memory changed on the server during the push' };
  return { code: 'server', message: `${f.message} (${f.code})` };
}
