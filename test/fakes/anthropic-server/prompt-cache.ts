import { createHash } from 'node:crypto';
import type { WireBlock, WireRequest } from './validate.js';

/**
 * Prompt-cache simulation (docs/architecture.md#how-it-is-tested): every block costs `ceil(len(JSON(block))/4)` tokens
 * (cache_control stripped; system and tools count too), in the API's order tools → system →
 * messages. A prefix ending at a cache_control breakpoint is written to the cache; a later request
 * whose prefix up to any block equals a written prefix reads it.
 */

export interface SimulatedUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

interface Position {
  key: string;
  tokens: number;
  breakpoint: boolean;
}

function strip(block: WireBlock): WireBlock {
  const { cache_control: _drop, ...rest } = block;
  return rest as WireBlock;
}

export const blockTokens = (block: WireBlock): number => Math.ceil(JSON.stringify(strip(block)).length / 4);

function positions(req: WireRequest): Position[] {
  const out: Position[] = [];
  const hash = createHash('sha256');
  let tokens = 0;
  const push = (tag: string, block: WireBlock) => {
    hash.update(tag);
    hash.update(JSON.stringify(strip(block)));
    tokens += blockTokens(block);
    out.push({ key: hash.copy().digest('hex'), tokens, breakpoint: Boolean(block.cache_control) });
  };
  for (const t of req.tools ?? []) push('tool', t);
  const system = typeof req.system === 'string' ? [{ type: 'text', text: req.system }] : (req.system ?? []);
  for (const s of system) push('system', s);
  for (const m of req.messages ?? []) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    blocks.forEach((b, i) => push(i === 0 ? `msg:${m.role}` : 'block', b));
  }
  return out;
}

/** One fake server's cache: prefixes written so far. */
export class PromptCache {
  private readonly written = new Set<string>();

  account(req: WireRequest): SimulatedUsage {
    const all = positions(req);
    const total = all.at(-1)?.tokens ?? 0;
    let read = 0;
    for (const p of all) if (this.written.has(p.key)) read = Math.max(read, p.tokens);
    let lastBreakpoint = 0;
    for (const p of all) {
      if (!p.breakpoint) continue;
      lastBreakpoint = Math.max(lastBreakpoint, p.tokens);
      this.written.add(p.key);
    }
    const creation = Math.max(0, lastBreakpoint - read);
    return { input_tokens: total - read - creation, cache_creation_input_tokens: creation, cache_read_input_tokens: read };
  }
}
