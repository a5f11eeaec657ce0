import type Anthropic from '@anthropic-ai/sdk';

/**
 * Prompt-cache breakpoints (docs/architecture.md#the-agent): the last system block, the last tool and the newest
 * message's last block — three, never more than the API's four. Any cache_control already present
 * (e.g. on history blocks) is removed first, so the count cannot grow with the conversation.
 */
const EPHEMERAL = { type: 'ephemeral' } as const;

export const MAX_CACHE_BREAKPOINTS = 4;

type Block = { cache_control?: unknown; type: string };

function stripBlock<T extends Block>(b: T): T {
  if (!('cache_control' in b)) return b;
  const { cache_control: _drop, ...rest } = b;
  return rest as T;
}

export function withCacheBreakpoints(params: {
  system: Anthropic.TextBlockParam[];
  tools: Anthropic.ToolUnion[];
  messages: Anthropic.MessageParam[];
}): { system: Anthropic.TextBlockParam[]; tools: Anthropic.ToolUnion[]; messages: Anthropic.MessageParam[] } {
  const system = params.system.map(stripBlock);
  const tools = params.tools.map((t) => stripBlock(t as Anthropic.ToolUnion & Block));
  const messages: Anthropic.MessageParam[] = params.messages.map((m) => ({
    ...m,
    content: typeof m.content === 'string' ? m.content : m.content.map((b) => stripBlock(b as Block) as typeof b),
  }) as Anthropic.MessageParam);
  if (system.length > 0) system[system.length - 1] = { ...system.at(-1)!, cache_control: EPHEMERAL };
  if (tools.length > 0) tools[tools.length - 1] = { ...tools.at(-1)!, cache_control: EPHEMERAL };
  const last = messages.at(-1);
  if (last) {
    const blocks: Anthropic.ContentBlockParam[] =
      typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
    const i = blocks.length - 1;
    const b = blocks[i];
    // thinking blocks cannot carry cache_control; they never end a message we send anyway.
    if (b && b.type !== 'thinking' && b.type !== 'redacted_thinking') {
      blocks[i] = { ...b, cache_control: EPHEMERAL } as Anthropic.ContentBlockParam;
    }
    messages[messages.length - 1] = { ...last, content: blocks } as Anthropic.MessageParam;
  }
  return { system, tools, messages };
}
