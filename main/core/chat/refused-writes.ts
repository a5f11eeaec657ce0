import type Anthropic from '@anthropic-ai/sdk';
import { parseFindingRefs } from '../../../common/domain/secrets.js';
import { AppFailure } from '../../../common/result.js';
import type { ConversationAgent } from './agent-setup.js';
import type { MemoryChanges, MemoryItem } from './memory-changes.js';
import { MEMORY_PAUSED } from './system-prompt.js';

/** How many refused writes a conversation holds for "Save it now"; the oldest goes first. */
const HELD_MAX = 20;

/**
 * The memory writes of this conversation that the secret guard refused, as the model made them, so that
 * "Save it now" (after the user marked a finding "Not a secret") can make the same write without asking
 * the model again (docs/security.md#secrets-scanning). Only in this process's memory: the transcript keeps
 * the call without the value, and nothing here is written, logged or sent anywhere. After a restart the
 * user asks Strata to save it again.
 */
export class RefusedWrites {
  private readonly held = new Map<string, { name: string; input: unknown }>();

  /**
   * Wraps the agent's recorder of tool inputs: a call recorded without a value (redactRefusedMemoryWrite)
   * is one the guard refuses, and its input as the model wrote it is held.
   */
  watch(agent: ConversationAgent): void {
    const record = agent.recordedToolInput;
    agent.recordedToolInput = async (call: Anthropic.ToolUseBlockParam) => {
      const recorded = await record(call);
      if (recorded !== null) this.hold(call.id, { name: call.name, input: call.input });
      return recorded;
    };
  }

  private hold(id: string, call: { name: string; input: unknown }): void {
    this.held.delete(id);
    this.held.set(id, call);
    for (const oldest of this.held.keys()) {
      if (this.held.size <= HELD_MAX) break;
      this.held.delete(oldest);
    }
  }

  /**
   * Makes the held write `toolUseId` again with the same input, through the agent's own tool and context:
   * the memory-folder sandbox, the pause switch and the secret guard (with the user's "Not a secret" list as
   * it is now) decide as they did for the model. The cards of what it wrote; a refusal says why in words.
   */
  async save(toolUseId: string, agent: ConversationAgent, changes: MemoryChanges): Promise<MemoryItem[]> {
    const call = this.held.get(toolUseId);
    if (!call) throw new AppFailure('not_found', 'Strata no longer holds this memory (the app was restarted since). Ask Strata to save it again.');
    const tool = agent.tools.find((t) => t.name === call.name);
    const input = tool?.inputSchema.safeParse(call.input);
    if (!tool || !input?.success) throw new AppFailure('invalid_request', 'This memory cannot be saved this way any more. Ask Strata to save it again.');
    const out = await tool.run(input.data, { ...agent.mainContext });
    if (out.isError) {
      changes.forgetPending();
      throw new AppFailure('invalid_request', whyNotSaved(out.content));
    }
    this.held.delete(toolUseId);
    return changes.confirm();
  }
}

/** A refused retry in the user's words (the tool's text is written for the model). */
function whyNotSaved(result: string): string {
  if (result.startsWith(MEMORY_PAUSED)) return 'Not saved: memory is paused in this project. Resume memory, then save it.';
  if (parseFindingRefs(result).length > 0) return 'Not saved: it still holds a value that looks like a secret. Mark each finding "Not a secret" first, or ask Strata to leave it out.';
  return `Not saved: ${result}`;
}
