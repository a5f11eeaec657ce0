/** The small model call as recall needs it: a system prompt and one user message in, the reply text out. */
export type SideQuery = (system: string, user: string, options: { maxTokens: number; signal?: AbortSignal }) => Promise<string>;

/** docs/memory.md#recall: max_tokens of the selector call. */
export const SELECTOR_MAX_TOKENS = 256;

export const selectorSystemPrompt = `You pick memory files that will help answer a question.
You get the question and a list of memory files, one per line: type, file name, day saved, description.
Return the file names (as listed) of at most 5 memories that are clearly useful for this question. Be selective: an empty list is a fine answer.
If recently used tools are listed, skip memories that only document how to use those tools, but keep warnings and gotchas about them.
Answer with JSON only, exactly in this shape: {"selected_memories": ["file.md"]}`;

/** The user message of the selector call. */
export function selectorUserMessage(query: string, manifest: string, recentTools: readonly string[] = []): string {
  const tools = recentTools.length ? `\n\nRecently used tools: ${recentTools.join(', ')}` : '';
  return `Query: ${query}\n\nAvailable memories:\n${manifest}${tools}`;
}

/**
 * Parses the selector's reply defensively: the first JSON object (or array) in the text, fenced or not;
 * names kept only when listed; at most `max`. Null when the reply holds no usable JSON, so the caller
 * falls back to the local ranking.
 */
export function parseSelection(reply: string, known: ReadonlySet<string>, max: number): string[] | null {
  const candidates = [reply.trim(), ...(/```(?:json)?\s*([\s\S]*?)```/.exec(reply)?.slice(1) ?? [])];
  const braces = /\{[\s\S]*\}/.exec(reply)?.[0];
  const brackets = /\[[\s\S]*\]/.exec(reply)?.[0];
  for (const text of [...candidates, braces, brackets]) {
    if (!text) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { selected_memories?: unknown } | null)?.selected_memories;
    if (!Array.isArray(list)) continue;
    const names = list
      .filter((n): n is string => typeof n === 'string')
      .map((n) => n.trim().replace(/^\.\//, ''))
      .filter((n) => known.has(n));
    return [...new Set(names)].slice(0, max);
  }
  return null;
}

/** What the selector answered: the names it chose, or why there is no usable answer. */
export type Selection = { chosen: string[] } | { chosen: null; failure: string };

/** Runs the selector; on any failure (network, abort, garbage) says why, so the caller ranks locally. */
export async function selectOnline(
  sideQuery: SideQuery,
  input: { query: string; manifest: string; known: ReadonlySet<string>; max: number; recentTools?: readonly string[]; signal?: AbortSignal },
): Promise<Selection> {
  try {
    const reply = await sideQuery(selectorSystemPrompt, selectorUserMessage(input.query, input.manifest, input.recentTools), {
      maxTokens: SELECTOR_MAX_TOKENS,
      signal: input.signal,
    });
    const chosen = parseSelection(reply, input.known, input.max);
    return chosen ? { chosen } : { chosen: null, failure: 'the model answered without a usable list' };
  } catch (error) {
    return { chosen: null, failure: `the model call failed (${(error as Error).message})` };
  }
}
