import type { MemoryConfig } from '../../../common/config.js';
import { contextTokens } from '../llm/index.js';
import type { MessageRecord } from '../transcripts/index.js';
import { lastAssistantHasToolUse, toolUseIds } from './conversation.js';

/** The trigger's part of a session's persisted state (docs/memory.md#session-notes). */
export interface TriggerState {
  /** Set once the context first reached the init threshold; from then on that gate is passed. */
  initialized: boolean;
  /** The update cursor: tool calls are counted after this record. Moves when an update starts. */
  updateCursorUuid: string | null;
  /** Context size when the last update succeeded (0 before any). */
  tokensAtLastUpdate: number;
}

export type TriggerReason = 'fork' | 'empty' | 'below-init' | 'growth' | 'tool-calls' | 'natural-pause';

export interface TriggerDecision {
  update: boolean;
  /** Why: for `update: true`, `tool-calls` or `natural-pause`; otherwise the gate that held it back. */
  reason: TriggerReason;
  contextTokens: number;
  toolCallsSinceCursor: number;
  /** The state to persist: `initialized` may flip, and the cursor moves to the last record on `update`. */
  next: TriggerState;
}

/**
 * Counts tool_use blocks in assistant records strictly after the cursor (docs/memory.md#session-notes): every one
 * without a cursor, none when the cursor's record is gone (e.g. compacted away).
 */
export function toolCallsSince(records: readonly MessageRecord[], cursorUuid: string | null): number {
  let from = 0;
  if (cursorUuid !== null) {
    const at = records.findIndex((r) => r.uuid === cursorUuid);
    if (at === -1) return 0;
    from = at + 1;
  }
  return records.slice(from).reduce((n, r) => n + toolUseIds(r).length, 0);
}

/**
 * docs/memory.md#session-notes, checked after every main-thread model response: never in forks; not before the context
 * reaches the init threshold; then growth since the last update is always required, and either
 * enough tool calls since the cursor or a natural pause (the last assistant turn made no tool call).
 */
export function decideUpdate(
  records: readonly MessageRecord[],
  state: TriggerState,
  config: MemoryConfig['sessionMemory'],
  options: { isFork: boolean },
): TriggerDecision {
  const tokens = records.length === 0 ? 0 : contextTokens([...records]);
  const tools = toolCallsSince(records, state.updateCursorUuid);
  const hold = (reason: TriggerReason, next: TriggerState = state): TriggerDecision => ({
    update: false,
    reason,
    contextTokens: tokens,
    toolCallsSinceCursor: tools,
    next,
  });
  if (options.isFork) return hold('fork');
  if (records.length === 0) return hold('empty');
  let next = state;
  if (!state.initialized) {
    if (tokens < config.minTokensToInit) return hold('below-init');
    next = { ...state, initialized: true };
  }
  if (tokens - state.tokensAtLastUpdate < config.minTokensBetweenUpdates) return hold('growth', next);
  const reason: TriggerReason | null =
    tools >= config.toolCallsBetweenUpdates ? 'tool-calls' : !lastAssistantHasToolUse(records) ? 'natural-pause' : null;
  if (reason === null) return hold('tool-calls', next);
  return {
    update: true,
    reason,
    contextTokens: tokens,
    toolCallsSinceCursor: tools,
    next: { ...next, updateCursorUuid: records[records.length - 1]!.uuid },
  };
}
