import { ForkFailedError, runForkedAgent } from '../agent/index.js';
import { toLoopCanUseTool } from '../auto-memory/index.js';
import { sandboxMemoryPaths } from '../auto-memory/index.js';
import { buildSystemPrompt } from '../chat/index.js';
import type { LlmClient } from '../llm/index.js';
import { defaultTools } from '../tools/index.js';
import type { ConsolidationFork } from './consolidator.js';

/**
 * The consolidation pass as a forked agent: the conversation agent's system prompt and tools (the
 * extractor's sandbox restricts them by decision, never by a different tool list), no parent messages —
 * the pass starts from the memory folder, not from a conversation.
 */
export function createConsolidationFork(input: { llm: LlmClient; projectDir: string; memoryDirs: readonly string[] }): ConsolidationFork {
  const system = buildSystemPrompt({ project: input.projectDir, memoryDirs: input.memoryDirs });
  const tools = sandboxMemoryPaths(defaultTools(), input.memoryDirs);
  return async ({ prompt, toolContext, canUseTool, maxTurns }) => {
    const r = await runForkedAgent({
      llm: input.llm,
      system,
      tools,
      messages: [],
      promptMessages: [{ role: 'user', content: prompt }],
      toolContext,
      canUseTool: toLoopCanUseTool(canUseTool),
      maxTurns,
      session: { sessionId: 'consolidation', cwd: input.projectDir },
    });
    if (r.status === 'error' || r.status === 'aborted') throw new ForkFailedError(r.status, r.error);
    return { text: r.text };
  };
}
