import type { ApiMessage, ContentBlock, MessageRecord } from '../transcripts/index.js';

/**
 * Token accounting, docs/memory.md#token-accounting. Estimates are deliberately conservative (×4/3) because they decide
 * when to compact; the real figure comes from the newest API response's usage.
 */

export const IMAGE_TOKENS = 2_000;

function blockChars(block: ContentBlock | { type: string; [k: string]: unknown }): number | null {
  switch (block.type) {
    case 'text':
      return (block as { text: string }).text.length;
    case 'tool_use': {
      const b = block as { name: string; input: unknown };
      return (b.name + JSON.stringify(b.input ?? {})).length;
    }
    case 'tool_result': {
      const content = (block as { content?: unknown }).content;
      if (typeof content === 'string') return content.length;
      if (!Array.isArray(content)) return 0;
      let chars = 0;
      for (const inner of content as ContentBlock[]) {
        const c = blockChars(inner);
        if (c === null) return null; // image inside a result: caller adds the flat figure
        chars += c;
      }
      return chars;
    }
    case 'thinking':
      return (block as { thinking: string }).thinking.length;
    case 'redacted_thinking':
      return (block as { data: string }).data.length;
    case 'image':
    case 'document':
      return null;
    default:
      return JSON.stringify(block).length;
  }
}

function blockTokens(block: ContentBlock): number {
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    return block.content.reduce((sum, inner) => sum + blockTokens(inner as ContentBlock), 0);
  }
  const chars = blockChars(block);
  return chars === null ? IMAGE_TOKENS : chars / 4;
}

/** One message's estimate: blocks summed (string content = one text block), ×4/3, rounded up. */
export function estimateMessageTokens(message: Pick<ApiMessage, 'content'>): number {
  const raw =
    typeof message.content === 'string'
      ? message.content.length / 4
      : message.content.reduce((sum, block) => sum + blockTokens(block), 0);
  return Math.ceil((raw * 4) / 3);
}

export function estimateMessagesTokens(messages: Pick<ApiMessage, 'content'>[]): number {
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
}

/** Estimated tokens of plain text (notes, memory files): chars/4, rounded up. */
export const estimateTextTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * Context size (docs/memory.md#token-accounting): the newest API usage (input + cache creation + cache read + output) plus an
 * estimate of every message after that response. Records sharing one `message.id` are one response,
 * so the anchor is the earliest of them and everything after it is estimated (docs/memory.md#token-accounting).
 * Without any usage, everything is estimated.
 */
export function contextTokens(records: MessageRecord[]): number {
  for (let i = records.length - 1; i >= 0; i--) {
    const m = records[i]!.message;
    if (m.role === 'assistant' && m.usage) {
      let anchor = i;
      const id = m.id;
      if (id) {
        for (let j = i - 1; j >= 0; j--) {
          const earlier = records[j]!.message;
          if (earlier.role !== 'assistant') continue;
          if (earlier.id !== id) break;
          anchor = j;
        }
      }
      const u = m.usage;
      const used =
        u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + u.output_tokens;
      // Tool results interleaved between sibling records of one response are not in its usage.
      const after = records.slice(anchor + 1).map((r) => r.message);
      return used + estimateMessagesTokens(after);
    }
  }
  return estimateMessagesTokens(records.map((r) => r.message));
}
