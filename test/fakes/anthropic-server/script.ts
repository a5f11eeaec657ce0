/**
 * What a test scripts the fake Messages API to answer (docs/architecture.md#the-agent). One entry answers one
 * POST /v1/messages; `respond` (auto mode) answers when the queue is empty.
 */

/** A content block the fake streams back. */
export type ScriptedBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking: string; signature?: string };

/** A successful response, streamed as SSE when the request asks for `stream: true`. */
export interface ScriptedMessage {
  kind: 'message';
  content: ScriptedBlock[];
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'compaction';
  /** Server-side compaction: a `compaction` block with this summary comes first (pair with stopReason 'compaction' to pause). */
  compaction?: string;
  /** Wait before the first byte (headers included). */
  firstByteDelayMs?: number;
  /** Wait between SSE frames. */
  chunkDelayMs?: number;
  /** Destroy the socket after this many SSE frames (a dropped connection mid-stream). */
  dropAfterFrames?: number;
  /** Split text and JSON deltas into pieces of this many characters (default 8). */
  chunkChars?: number;
}

/** An API error with the real API's status and body shape. */
export interface ScriptedError {
  kind: 'error';
  status: number;
  type: string;
  message: string;
  retryAfterSeconds?: number;
}

/** The connection is closed before any byte is sent. */
export interface ScriptedDrop {
  kind: 'drop';
}

export type ScriptedResponse = ScriptedMessage | ScriptedError | ScriptedDrop;

export const text = (t: string, extra: Partial<ScriptedMessage> = {}): ScriptedMessage => ({
  kind: 'message',
  content: [{ type: 'text', text: t }],
  ...extra,
});

export const toolCalls = (
  calls: { name: string; input: Record<string, unknown>; id?: string }[],
  extra: Partial<ScriptedMessage> = {},
): ScriptedMessage => ({
  kind: 'message',
  content: calls.map((c) => ({ type: 'tool_use' as const, ...c })),
  stopReason: 'tool_use',
  ...extra,
});

/** The real API's error bodies for the statuses the client maps (docs/architecture.md#how-it-is-tested). */
export const apiErrors = {
  invalidKey: (): ScriptedError => ({ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' }),
  rateLimited: (retryAfterSeconds = 30): ScriptedError => ({
    kind: 'error',
    status: 429,
    type: 'rate_limit_error',
    message: 'Number of request tokens has exceeded your per-minute rate limit',
    retryAfterSeconds,
  }),
  overloaded: (): ScriptedError => ({ kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' }),
  promptTooLong: (): ScriptedError => ({
    kind: 'error',
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 210000 tokens > 200000 maximum',
  }),
  /** The API's 413: the request body (long history, big tool results) is over its byte limit. */
  requestTooLarge: (): ScriptedError => ({ kind: 'error', status: 413, type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' }),
  serverError: (): ScriptedError => ({ kind: 'error', status: 500, type: 'api_error', message: 'Internal server error' }),
};
