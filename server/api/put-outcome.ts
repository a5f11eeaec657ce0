import type { PutOutcome } from '../storage/memory-store.js';
import { formatEtag } from '../../common/team-memory/index.js';
import { ApiError } from './api-error.js';

/** A refused PUT as its SPEC §5 answer: 412, 428 or the structured 413. */
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
    case 'too_many_entries':
      return new ApiError(
        413,
        'team_memory_too_many_entries',
        `${repo} would hold ${outcome.receivedEntries} entries; the limit is ${outcome.maxEntries}`,
        { max_entries: outcome.maxEntries, received_entries: outcome.receivedEntries },
      );
  }
}
