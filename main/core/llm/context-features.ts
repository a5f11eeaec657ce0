import type { BetaClearToolUses20250919Edit, BetaCompact20260112Edit } from '@anthropic-ai/sdk/resources/beta/messages/messages';

/**
 * The Messages API's own context features a conversation may turn on (docs/memory.md "Fitting a long
 * conversation"). Each is a beta: the request goes to the beta endpoint with its header, and its
 * parameters are built here, in one place, so forks of a conversation send exactly what the main
 * agent sends (the prompt-cache key includes them).
 */
export interface ContextFeatures {
  /** `clear_tool_uses_20250919`: old tool results are cleared server-side past a threshold. */
  clearToolUses?: {
    triggerTokens: number;
    keepToolUses: number;
    clearAtLeastTokens: number;
    /** Tools whose results are never cleared (the memory tool: what it read is memory). */
    excludeTools: string[];
  };
  /** `compact_20260112`: the API summarizes the conversation past a threshold, then pauses. */
  serverCompaction?: { triggerTokens: number; instructions: string };
  /** The `memory_20250818` tool is among the request's tools. */
  memoryTool?: boolean;
}

export const BETA_CONTEXT_MANAGEMENT = 'context-management-2025-06-27';
export const BETA_COMPACTION = 'compact-2026-01-12';

/** The API's own floor for a compaction trigger (a smaller value is a 400). */
export const MIN_COMPACTION_TRIGGER = 50_000;

export type ContextManagementEdit = BetaClearToolUses20250919Edit | BetaCompact20260112Edit;

export interface BetaParams {
  betas: string[];
  context_management?: { edits: ContextManagementEdit[] };
}

/** The beta headers and `context_management` for a set of features; null when none is on. */
export function betaParams(features: ContextFeatures | undefined): BetaParams | null {
  if (!features) return null;
  const betas = new Set<string>();
  const edits: ContextManagementEdit[] = [];
  if (features.memoryTool) betas.add(BETA_CONTEXT_MANAGEMENT);
  const clear = features.clearToolUses;
  if (clear) {
    betas.add(BETA_CONTEXT_MANAGEMENT);
    edits.push({
      type: 'clear_tool_uses_20250919',
      trigger: { type: 'input_tokens', value: clear.triggerTokens },
      keep: { type: 'tool_uses', value: clear.keepToolUses },
      clear_at_least: { type: 'input_tokens', value: clear.clearAtLeastTokens },
      ...(clear.excludeTools.length > 0 ? { exclude_tools: clear.excludeTools } : {}),
    });
  }
  const compact = features.serverCompaction;
  if (compact) {
    betas.add(BETA_COMPACTION);
    edits.push({
      type: 'compact_20260112',
      trigger: { type: 'input_tokens', value: Math.max(MIN_COMPACTION_TRIGGER, compact.triggerTokens) },
      instructions: compact.instructions,
      // Paused, the app re-injects CLAUDE.md and MEMORY.md before the turn goes on.
      pause_after_compaction: true,
    });
  }
  if (betas.size === 0) return null;
  return { betas: [...betas], ...(edits.length > 0 ? { context_management: { edits } } : {}) };
}

/** What the API reports it cleared in one request (`context_management.applied_edits`). */
export interface AppliedEdits {
  clearedInputTokens: number;
  clearedToolUses: number;
}

export function summarizeAppliedEdits(response: { applied_edits?: readonly { type: string; cleared_input_tokens?: number; cleared_tool_uses?: number }[] } | null | undefined): AppliedEdits | null {
  const edits = response?.applied_edits ?? [];
  if (edits.length === 0) return null;
  return {
    clearedInputTokens: edits.reduce((n, e) => n + (e.cleared_input_tokens ?? 0), 0),
    clearedToolUses: edits.reduce((n, e) => n + (e.cleared_tool_uses ?? 0), 0),
  };
}
