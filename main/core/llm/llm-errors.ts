import Anthropic from '@anthropic-ai/sdk';

/**
 * A failed model call as a value a user understands (docs/architecture.md#the-agent): each kind has its own banner
 * and a Retry action; nothing here crashes the session.
 */
export type LlmError =
  | { kind: 'invalid_key'; message: string }
  | { kind: 'rate_limited'; message: string; retryAfterSeconds: number | null }
  | { kind: 'overloaded'; message: string }
  | { kind: 'context_too_long'; message: string }
  | { kind: 'offline'; message: string }
  | { kind: 'server_error'; message: string; status: number | null }
  | { kind: 'aborted'; message: string }
  | { kind: 'bad_request'; message: string };

export type LlmErrorKind = LlmError['kind'];

function retryAfter(headers: Headers | undefined): number | null {
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The API's own error text (`error.error.message`), without the SDK's status prefix. */
function apiMessage(e: InstanceType<typeof Anthropic.APIError>): string {
  const body = e.error as { error?: { message?: string } } | undefined;
  return body?.error?.message ?? e.message;
}

/** Maps anything the SDK (or a dropped stream) throws to an `LlmError`. */
export function toLlmError(e: unknown, signal?: AbortSignal): LlmError {
  if (signal?.aborted || e instanceof Anthropic.APIUserAbortError || (e instanceof Error && e.name === 'AbortError')) {
    return { kind: 'aborted', message: 'Stopped.' };
  }
  if (e instanceof Anthropic.AuthenticationError || e instanceof Anthropic.PermissionDeniedError) {
    return { kind: 'invalid_key', message: 'The API key was refused. Check it in Settings, then retry.' };
  }
  if (e instanceof Anthropic.RateLimitError) {
    const s = retryAfter(e.headers);
    return {
      kind: 'rate_limited',
      retryAfterSeconds: s,
      message: s === null ? 'Rate limited by the API. Retry in a moment.' : `Rate limited by the API. Retry in ${s} s.`,
    };
  }
  if (e instanceof Anthropic.APIConnectionError) {
    return { kind: 'offline', message: 'Cannot reach the API. Check your connection or the base URL, then retry.' };
  }
  if (e instanceof Anthropic.APIError && e.status !== undefined) {
    const text = apiMessage(e);
    if (e.status === 529 || /overloaded/i.test(text)) {
      return { kind: 'overloaded', message: 'The API is overloaded right now. Retry in a moment.' };
    }
    if (e.status === 400 || e.status === 413) {
      // A 413 is the conversation's bytes over the API's limit: too long all the same, and compaction is the cure.
      if (e.status === 413 || /prompt is too long|too many tokens|context.{0,20}(length|window)/i.test(text)) {
        return { kind: 'context_too_long', message: `The API said: ${text}` };
      }
      return { kind: 'bad_request', message: `The API rejected the request: ${text}` };
    }
    if (e.status >= 500) return { kind: 'server_error', status: e.status, message: `The API failed (${e.status}). Retry.` };
    return { kind: 'bad_request', message: `The API rejected the request (${e.status}): ${text}` };
  }
  if (e instanceof Anthropic.APIError) {
    // An error event inside the stream (no HTTP status): the body says what it was.
    const text = e.message;
    if (/overloaded/i.test(text)) return { kind: 'overloaded', message: 'The API is overloaded right now. Retry in a moment.' };
    return { kind: 'server_error', status: null, message: `The API failed mid-answer. Retry.` };
  }
  // A socket dropped mid-stream surfaces as a plain Error ("terminated", ECONNRESET).
  return { kind: 'offline', message: 'The connection to the API was lost. Retry.' };
}
