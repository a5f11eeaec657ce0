import type { PutOutcome } from '../storage/memory-store.js';
import { formatEtag } from '../../common/team-memory/index.js';
import { ApiError } from './api-error.js';

/** A refused PUT as its docs/sync-protocol.md answer: 412, 428, the structured 413, or 400 for a colliding key. */
export function describePutOutcome(repo: string, outcome: Exclude<PutOutcome, { kind: 'ok' }>): ApiError {
  switch (outcome.kind) {
    case 'precondition_failed':
      return new ApiError(
        412,
        'precondition_failed',
        outcome.current === null
          ? `${repo} has no team memory yet; send the first PUT without If-Match`
          : `${repo} changed since your If-Match; fetch ?view=hashes and retry`,
        {},
        outcome.current === null ? {} : { etag: formatEtag(outcome.current) },
      );
    case 'precondition_required':
      return new ApiError(428, 'precondition_required', `${repo} already has team memory; send If-Match with its current ETag`, {}, {
        etag: formatEtag(outcome.current),
      });
    case 'invalid_key':
      return new ApiError(400, 'invalid_key', `invalid key ${JSON.stringify(outcome.key)}: ${outcome.reason}`, { key: outcome.key, reason: outcome.reason });
    case 'repo_too_large':
      return new ApiError(
        413,
        'team_memory_repo_too_large',
        `${repo} would hold ${outcome.receivedBytes} bytes of memory; the limit is ${outcome.maxRepoBytes}`,
        { max_repo_bytes: outcome.maxRepoBytes, received_bytes: outcome.receivedBytes },
      );
    case 'too_many_entries':
      return new ApiError(
        413,
        'team_memory_too_many_entries',
        `${repo} would hold ${outcome.receivedEntries} entries; the limit is ${outcome.maxEntries}`,
        { max_entries: outcome.maxEntries, received_entries: outcome.receivedEntries },
      );
  }
}
