/**
 * The fake's request checks, as strict as docs/architecture.md#how-it-is-tested: what the real API rejects with a 400
 * is rejected here, so a client bug shows up in unit tests rather than in front of a user.
 */

export interface WireBlock {
  type: string;
  [key: string]: unknown;
}

export interface WireMessage {
  role: string;
  content: string | WireBlock[];
}

export interface WireRequest {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  system?: string | WireBlock[];
  tools?: WireBlock[];
  messages?: WireMessage[];
}

const blocksOf = (m: WireMessage): WireBlock[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;

/** Same-role runs merged, as the real API does before validating. */
export function mergeRuns(messages: WireMessage[]): { role: string; blocks: WireBlock[] }[] {
  const out: { role: string; blocks: WireBlock[] }[] = [];
  for (const m of messages) {
    const last = out.at(-1);
    if (last && last.role === m.role) last.blocks.push(...blocksOf(m));
    else out.push({ role: m.role, blocks: [...blocksOf(m)] });
  }
  return out;
}

function countCacheControl(req: WireRequest): number {
  let n = 0;
  const visit = (b: WireBlock) => {
    if (b.cache_control) n++;
    if (b.type === 'tool_result' && Array.isArray(b.content)) (b.content as WireBlock[]).forEach(visit);
  };
  if (Array.isArray(req.system)) req.system.forEach(visit);
  (req.tools ?? []).forEach(visit);
  for (const m of req.messages ?? []) if (Array.isArray(m.content)) m.content.forEach(visit);
  return n;
}

/** The beta under which a request may carry mid-conversation `system` turns (newer Claude Code sends them). */
export const SYSTEM_TURNS_BETA = 'per-turn-control-2026-07-01';

/** Returns the 400 message the real API would give, or null when the request is valid. */
export function validateRequest(req: WireRequest, strict: boolean, betas: readonly string[] = []): string | null {
  if (typeof req.model !== 'string' || !req.model) return 'model: Field required';
  if (typeof req.max_tokens !== 'number') return 'max_tokens: Field required';
  const all = req.messages;
  if (!Array.isArray(all) || all.length === 0) return 'messages: at least one message is required';
  const systemTurns = betas.includes(SYSTEM_TURNS_BETA);
  for (const m of all) {
    if (m.role !== 'user' && m.role !== 'assistant' && !(systemTurns && m.role === 'system')) return `messages: unexpected role "${m.role}"`;
    if (typeof m.content === 'string' ? m.content.trim() === '' : m.content.length === 0) {
      return 'messages: all messages must have non-empty content';
    }
    for (const b of blocksOf(m)) {
      if (b.type === 'text' && (typeof b.text !== 'string' || b.text.trim() === '')) {
        return 'messages: text content blocks must contain non-whitespace text';
      }
    }
  }
  // System turns sit between the others: the user/assistant rules apply to what is left.
  const messages = all.filter((m) => m.role !== 'system');
  if (messages.length === 0) return 'messages: at least one message is required';
  if (strict) {
    for (let i = 1; i < messages.length; i++) {
      if (messages[i]!.role === messages[i - 1]!.role) {
        return `strict: messages.${i}: consecutive ${messages[i]!.role} messages were not merged by the client`;
      }
    }
  }
  const merged = mergeRuns(messages);
  if (merged[0]!.role !== 'user') return 'messages: first message must use the "user" role';
  for (let i = 0; i < merged.length; i++) {
    const m = merged[i]!;
    if (m.role === 'user') {
      const prev = merged[i - 1];
      const ids = new Set(prev ? prev.blocks.filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
      for (const b of m.blocks) {
        if (b.type === 'tool_result' && !ids.has(b.tool_use_id)) {
          return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
    } else {
      const next = merged[i + 1];
      if (!next) continue; // a final assistant message is a prefill
      const answered = new Set(next.blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
      const missing = m.blocks.filter((b) => b.type === 'tool_use' && !answered.has(b.id));
      if (missing.length > 0) {
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.map((b) => String(b.id)).join(', ')}`;
      }
    }
  }
  for (const [i, t] of (req.tools ?? []).entries()) {
    if (t.type === undefined || t.type === 'custom') {
      if (typeof t.name !== 'string' || typeof t.input_schema !== 'object' || t.input_schema === null) return `tools.${i}.input_schema: Field required`;
    } else if (t.type === 'memory_20250818') {
      // The memory tool is defined by the API: its name is fixed and it takes no schema.
      if (t.name !== 'memory') return `tools.${i}.name: Input should be 'memory'`;
      if ('input_schema' in t) return `tools.${i}.input_schema: Extra inputs are not permitted`;
    }
  }
  const breakpoints = countCacheControl(req);
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return null;
}
