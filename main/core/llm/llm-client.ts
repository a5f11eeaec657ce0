import Anthropic from '@anthropic-ai/sdk';
import { withCacheBreakpoints } from './cache-breakpoints.js';
import { toLlmError, type LlmError } from './llm-errors.js';

/** What the client streams to its caller while a response arrives. */
export type LlmStreamEvent =
  | { type: 'message_start'; id: string; model: string }
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; block: Anthropic.ToolUseBlockParam }
  | { type: 'usage'; usage: Anthropic.Usage };

/** One complete assistant response, in the request-param shape so it can be sent back as history. */
export interface LlmResponse {
  id: string;
  model: string;
  content: Anthropic.ContentBlockParam[];
  stopReason: string | null;
  usage: Anthropic.Usage;
}

export interface LlmRequest {
  system: Anthropic.TextBlockParam[];
  tools: Anthropic.Tool[];
  messages: Anthropic.MessageParam[];
  maxTokens?: number;
}

/** On failure, the finished text streamed so far (an aborted answer keeps what the user saw). */
export type LlmResult = { ok: true; response: LlmResponse } | { ok: false; error: LlmError; partialText: string };

export interface LlmClientOptions {
  /** Reads the key when a request starts (credential store or ANTHROPIC_API_KEY; the lead wires it). */
  getApiKey: () => Promise<string | null>;
  baseURL?: string;
  model: string;
  maxTokens?: number;
}

/** The model-call seam every agent loop uses (issue 3 item 1); never throws. */
export interface LlmClient {
  readonly model: string;
  stream(request: LlmRequest, options: { signal?: AbortSignal; onEvent?: (e: LlmStreamEvent) => void }): Promise<LlmResult>;
}

interface Partial {
  type: string;
  text: string;
  json: string;
  signature: string;
  id?: string;
  name?: string;
  data?: string;
}

function finish(p: Partial): Anthropic.ContentBlockParam | null {
  switch (p.type) {
    case 'text':
      return p.text === '' ? null : { type: 'text', text: p.text };
    case 'thinking':
      return { type: 'thinking', thinking: p.text, signature: p.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: p.data ?? '' };
    case 'tool_use': {
      let input: unknown;
      try {
        input = p.json ? (JSON.parse(p.json) as unknown) : {};
      } catch {
        // Cut off by max_tokens: the tool's input validation tells the model what went wrong.
        input = { _truncated_input: p.json };
      }
      return { type: 'tool_use', id: p.id!, name: p.name!, input };
    }
    default:
      return null;
  }
}

export function createLlmClient(options: LlmClientOptions): LlmClient {
  return {
    model: options.model,
    async stream(request, { signal, onEvent: listener }) {
      // A listener's bug must not look like a network failure: its exceptions stay out of the stream.
      const onEvent = listener
        ? (e: LlmStreamEvent) => {
            try {
              listener(e);
            } catch {
              /* the caller's listener failed; the response still completes */
            }
          }
        : undefined;
      const blocks = new Map<number, Partial>();
      const done: Anthropic.ContentBlockParam[] = [];
      const partialText = () => [...blocks.values()].filter((b) => b.type === 'text').map((b) => b.text).join('');
      try {
        if (signal?.aborted) throw new Anthropic.APIUserAbortError();
        const apiKey = await options.getApiKey();
        if (!apiKey) return { ok: false, error: { kind: 'invalid_key', message: 'No API key is set. Add one in Settings.' }, partialText: '' };
        const client = new Anthropic({ apiKey, baseURL: options.baseURL, maxRetries: 0 });
        const { system, tools, messages } = withCacheBreakpoints(request);
        const stream = await client.messages.create(
          { model: options.model, max_tokens: request.maxTokens ?? options.maxTokens ?? 8192, system, tools, messages, stream: true },
          { signal },
        );
        let id = '';
        let model = options.model;
        let usage: Anthropic.Usage | null = null;
        let stopReason: string | null = null;
        let complete = false;
        for await (const ev of stream) {
          // The SDK may hand over frames already buffered after an abort; Stop means stop now.
          if (signal?.aborted) throw new Anthropic.APIUserAbortError();
          switch (ev.type) {
            case 'message_start':
              id = ev.message.id;
              model = ev.message.model;
              usage = ev.message.usage;
              onEvent?.({ type: 'message_start', id, model });
              break;
            case 'content_block_start': {
              const b = ev.content_block;
              blocks.set(ev.index, {
                type: b.type,
                text: b.type === 'text' ? b.text : '',
                json: '',
                signature: '',
                id: b.type === 'tool_use' ? b.id : undefined,
                name: b.type === 'tool_use' ? b.name : undefined,
                data: b.type === 'redacted_thinking' ? b.data : undefined,
              });
              break;
            }
            case 'content_block_delta': {
              const p = blocks.get(ev.index);
              if (!p) break;
              const d = ev.delta;
              if (d.type === 'text_delta') {
                p.text += d.text;
                onEvent?.({ type: 'text', text: d.text });
              } else if (d.type === 'thinking_delta') {
                p.text += d.thinking;
                onEvent?.({ type: 'thinking', thinking: d.thinking });
              } else if (d.type === 'signature_delta') p.signature += d.signature;
              else if (d.type === 'input_json_delta') p.json += d.partial_json;
              break;
            }
            case 'content_block_stop': {
              const p = blocks.get(ev.index);
              const b = p ? finish(p) : null;
              if (b) done.push(b);
              if (b?.type === 'tool_use') onEvent?.({ type: 'tool_use', block: b });
              break;
            }
            case 'message_delta':
              stopReason = ev.delta.stop_reason;
              if (usage) usage = Object.assign({}, usage as Anthropic.Usage, { output_tokens: ev.usage.output_tokens });
              break;
            case 'message_stop':
              complete = true;
              break;
          }
        }
        // On abort the SDK ends the iteration quietly; a stream without message_stop was cut short.
        if (signal?.aborted) throw new Anthropic.APIUserAbortError();
        if (!complete || !id || !usage) return { ok: false, error: toLlmError(new Error('stream ended early'), signal), partialText: partialText() };
        onEvent?.({ type: 'usage', usage });
        return { ok: true, response: { id, model, content: done, stopReason, usage } };
      } catch (e) {
        return { ok: false, error: toLlmError(e, signal), partialText: partialText() };
      }
    },
  };
}
