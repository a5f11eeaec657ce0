import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PromptCache, blockTokens } from './prompt-cache.js';
import type { ScriptedError, ScriptedMessage, ScriptedResponse } from './script.js';
import { applyContextEdits, validateContextManagement, type AppliedEdit } from './context-edits.js';
import { validateRequest, type WireRequest } from './validate.js';

/** One request the fake received, with its verdict. */
export interface ReceivedRequest {
  body: WireRequest;
  headers: http.IncomingHttpHeaders;
  /** The 400 message when the fake rejected it as invalid, else null. */
  rejected: string | null;
}

export interface FakeAnthropicOptions {
  /** Also reject consecutive same-role messages (asserts the client merged them). */
  strict?: boolean;
  /** Auto mode: answers a request when the scripted queue is empty. */
  respond?: (request: WireRequest) => ScriptedResponse;
  port?: number;
}

/** A running fake Messages API on loopback. */
export interface FakeAnthropic {
  url: string;
  requests: ReceivedRequest[];
  enqueue(...responses: ScriptedResponse[]): void;
  /** Scripted responses not yet consumed. */
  pending(): number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sendError(res: http.ServerResponse, e: ScriptedError): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': 'req_fake' };
  if (e.retryAfterSeconds !== undefined) headers['retry-after'] = String(e.retryAfterSeconds);
  res.writeHead(e.status, headers);
  res.end(JSON.stringify({ type: 'error', error: { type: e.type, message: e.message } }));
}

function chunks(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out.length ? out : [''];
}

let idCounter = 0;

function buildFrames(script: ScriptedMessage, req: WireRequest, usage: ReturnType<PromptCache['account']>, applied: AppliedEdit[]) {
  const id = `msg_fake_${++idCounter}`;
  const size = script.chunkChars ?? 8;
  const content = script.content.map((b) =>
    b.type === 'tool_use' ? { ...b, id: b.id ?? `toolu_fake_${++idCounter}` } : b.type === 'thinking' ? { ...b, signature: b.signature ?? 'sig_fake' } : b,
  );
  // A compaction's summary is written by the model: it is billed as output like the rest.
  const outputTokens = content.reduce((n, b) => n + blockTokens(b), script.compaction === undefined ? 0 : blockTokens({ type: 'compaction', content: script.compaction }));
  const stopReason = script.stopReason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
  const compaction = script.compaction === undefined ? [] : [{ type: 'compaction', content: script.compaction, encrypted_content: null }];
  const contextManagement = applied.length > 0 ? { context_management: { applied_edits: applied } } : {};
  const message = {
    id,
    type: 'message',
    role: 'assistant',
    model: req.model,
    content: [...compaction, ...content],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { ...usage, output_tokens: outputTokens },
    ...contextManagement,
  };
  const frames: [string, unknown][] = [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } }],
  ];
  const offset = compaction.length;
  if (script.compaction !== undefined) {
    // The API streams the summary as one compaction_delta once it is complete.
    frames.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'compaction', content: null, encrypted_content: null } }]);
    frames.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: script.compaction, encrypted_content: null } }]);
    frames.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
  }
  content.forEach((b, i) => {
    const index = i + offset;
    if (b.type === 'text') {
      frames.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      for (const c of chunks(b.text, size)) frames.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: c } }]);
    } else if (b.type === 'thinking') {
      frames.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }]);
      for (const c of chunks(b.thinking, size)) frames.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: c } }]);
      frames.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: b.signature } }]);
    } else {
      frames.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }]);
      for (const c of chunks(JSON.stringify(b.input), size)) frames.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: c } }]);
    }
    frames.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  frames.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens }, ...contextManagement }]);
  frames.push(['message_stop', { type: 'message_stop' }]);
  return { message, frames };
}

async function sendMessage(res: http.ServerResponse, socket: Socket, script: ScriptedMessage, req: WireRequest, cache: PromptCache) {
  if (script.firstByteDelayMs) await sleep(script.firstByteDelayMs);
  if (socket.destroyed) return;
  // Context editing happens before the prompt reaches the model: usage counts what is left.
  const edited = applyContextEdits(req);
  const { message, frames } = buildFrames(script, req, cache.account(edited.request), edited.applied);
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake' });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_fake' });
  res.flushHeaders();
  let sent = 0;
  for (const [event, data] of frames) {
    if (socket.destroyed) return;
    if (script.dropAfterFrames !== undefined && sent >= script.dropAfterFrames) {
      socket.destroy();
      return;
    }
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    sent++;
    if (script.chunkDelayMs) await sleep(script.chunkDelayMs);
  }
  res.end();
}

/** Starts the fake on 127.0.0.1 (an ephemeral port unless `port`). */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queue: ScriptedResponse[] = [];
  const requests: ReceivedRequest[] = [];
  const cache = new PromptCache();
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(parts).toString('utf8')).catch(() => res.destroy());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    // Claude Code checks that the API host answers (`HEAD /`) before each request.
    if (req.method === 'HEAD') {
      res.writeHead(200);
      res.end();
      return;
    }
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      sendError(res, { kind: 'error', status: 404, type: 'not_found_error', message: `Not found: ${req.method} ${req.url}` });
      return;
    }
    let body: WireRequest;
    try {
      body = JSON.parse(raw) as WireRequest;
    } catch {
      sendError(res, { kind: 'error', status: 400, type: 'invalid_request_error', message: 'Invalid JSON body' });
      return;
    }
    const betas = String(req.headers['anthropic-beta'] ?? '').split(',').map((b) => b.trim()).filter(Boolean);
    const rejected = validateRequest(body, options.strict ?? false, betas) ?? validateContextManagement(body, betas);
    requests.push({ body, headers: req.headers, rejected });
    if (rejected) {
      sendError(res, { kind: 'error', status: 400, type: 'invalid_request_error', message: rejected });
      return;
    }
    const next = queue.shift() ?? options.respond?.(body);
    if (!next) {
      sendError(res, { kind: 'error', status: 500, type: 'api_error', message: 'fake: no scripted response left' });
      return;
    }
    if (next.kind === 'drop') req.socket.destroy();
    else if (next.kind === 'error') sendError(res, next);
    else await sendMessage(res, req.socket, next, body, cache);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...r) => void queue.push(...r),
    pending: () => queue.length,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
