import Anthropic from '@anthropic-ai/sdk';
import { withCacheBreakpoints } from './cache-breakpoints.js';
import { betaParams, summarizeAppliedEdits, type AppliedEdits, type ContextFeatures } from './context-features.js';
import { toLlmError, type LlmError } from './llm-errors.js';

/** What the client streams to its caller while a response arrives. */
export type LlmStreamEvent =
  | { type: 'message_start'; id: string; model: string }
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  | { type: 'tool_use'; block: Anthropic.ToolUseBlockParam }
  | { type: 'usage'; usage: Anthropic.Usage }
  /** The API summarized the conversation (server-side compaction); `summary` is what replaced it. */
  | { type: 'compaction'; summary: string | null };

/**
 * The API's `compaction` block, kept verbatim in the transcript and sent back on later requests: the
 * API drops everything before it (server-side compaction).
 */
export interface CompactionBlockParam {
  type: 'compaction';
  content: string | null;
  encrypted_content?: string | null;
  signature?: string | null;
}

/** Content the client sends back as history: the API's blocks plus the compaction block. */
export type ResponseBlock = Anthropic.ContentBlockParam | CompactionBlockParam;

/** One complete assistant response, in the request-param shape so it can be sent back as history. */
export interface LlmResponse {
  id: string;
  model: string;
  content: Anthropic.ContentBlockParam[];
  stopReason: string | null;
  usage: Anthropic.Usage;
  /** What the API's context editing cleared from this request's input, when it cleared anything. */
  appliedEdits?: AppliedEdits;
  /** Server-side compaction: the block that now stands for everything before it. */
  compaction?: CompactionBlockParam;
}

export interface LlmRequest {
  system: Anthropic.TextBlockParam[];
  tools: Anthropic.ToolUnion[];
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
  /**
   * The API's context features this client turns on for every request (a conversation and its forks
   * share one client, so they share one prompt-cache key).
   */
  features?: ContextFeatures;
}

/** The model-call seam every agent loop uses (docs/architecture.md#the-agent); never throws. */
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
  encrypted?: string | null;
}

/** The beta stream's frames this client reads beyond the GA ones (compaction, applied edits). */
type CompactionStreamEvent =
  | { type: 'content_block_start'; index: number; content_block: { type: 'compaction'; content: string | null; encrypted_content?: string | null; signature?: string | null } }
  | { type: 'content_block_delta'; index: number; delta: { type: 'compaction_delta'; content: string | null; encrypted_content: string | null } };

function finish(p: Partial): Anthropic.ContentBlockParam | null {
  switch (p.type) {
    case 'text':
      return p.text === '' ? null : { type: 'text', text: p.text };
    case 'thinking':
      return { type: 'thinking', thinking: p.text, signature: p.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: p.data ?? '' };
    case 'compaction':
      return null; // kept apart: see LlmResponse.compaction
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
        const params = { model: options.model, max_tokens: request.maxTokens ?? options.maxTokens ?? 8192, system, tools, messages, stream: true as const };
        const beta = betaParams(options.features);
        // The beta endpoint only when a beta feature is on: a plain request stays byte-for-byte what it was.
        const stream = (
          beta
            ? await client.beta.messages.create({ ...params, ...beta } as unknown as Anthropic.Beta.Messages.MessageCreateParamsStreaming, { signal })
            : await client.messages.create(params, { signal })
        ) as AsyncIterable<Anthropic.RawMessageStreamEvent | CompactionStreamEvent>;
        let compaction: CompactionBlockParam | undefined;
        let appliedEdits: AppliedEdits | null = null;
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
              if (b.type === 'compaction') {
                blocks.set(ev.index, { type: 'compaction', text: b.content ?? '', json: '', signature: b.signature ?? '', encrypted: b.encrypted_content ?? null });
                break;
              }
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
              else if (d.type === 'compaction_delta') {
                if (d.content !== null) p.text += d.content;
                if (d.encrypted_content !== null) p.encrypted = d.encrypted_content;
              }
              break;
            }
            case 'content_block_stop': {
              const p = blocks.get(ev.index);
              if (p?.type === 'compaction') {
                compaction = { type: 'compaction', content: p.text === '' ? null : p.text, ...(p.encrypted ? { encrypted_content: p.encrypted } : {}), ...(p.signature ? { signature: p.signature } : {}) };
                onEvent?.({ type: 'compaction', summary: compaction.content });
                break;
              }
              const b = p ? finish(p) : null;
              if (b) done.push(b);
              if (b?.type === 'tool_use') onEvent?.({ type: 'tool_use', block: b });
              break;
            }
            case 'message_delta':
              stopReason = ev.delta.stop_reason;
              appliedEdits = summarizeAppliedEdits((ev as { context_management?: Parameters<typeof summarizeAppliedEdits>[0] }).context_management) ?? appliedEdits;
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
        return {
          ok: true,
          response: { id, model, content: done, stopReason, usage, ...(appliedEdits ? { appliedEdits } : {}), ...(compaction ? { compaction } : {}) },
        };
      } catch (e) {
        return { ok: false, error: toLlmError(e, signal), partialText: partialText() };
      }
    },
  };
}
