import type { ChatError } from '../../../common/domain/chat.js';
import type { LlmError } from '../llm/index.js';

/** The line a failed turn leaves in the conversation: what happened, while the banner says what to do. */
export const WHY_NO_ANSWER: Record<ChatError['kind'], string> = {
  no_api_key: 'no API key was set',
  invalid_key: 'the API key was refused',
  rate_limited: 'the API was rate limited',
  overloaded: 'the model was overloaded',
  context_too_long: 'the conversation was too long for the model',
  offline: 'the model could not be reached',
  server_error: 'the model service failed',
  bad_request: 'the request was refused',
};

/** A failed call as the banner shows it (a Stop is not an error and never gets here). */
export function toChatError(error: Exclude<LlmError, { kind: 'aborted' }>): ChatError {
  if (error.kind === 'rate_limited') {
    return { kind: 'rate_limited', message: error.message, ...(error.retryAfterSeconds !== null ? { retryAfterSeconds: error.retryAfterSeconds } : {}) };
  }
  return { kind: error.kind, message: error.message };
}
