import { z } from 'zod';

/**
 * Every number of docs/memory.md in one object. The defaults are the reference system's; a user override is
 * persisted in the vault's settings (`memory` key) and merged over these by `resolveMemoryConfig`.
 */
export const memoryConfigSchema = z.object({
  sessionMemory: z.object({
    minTokensToInit: z.number().int().positive(),
    minTokensBetweenUpdates: z.number().int().positive(),
    toolCallsBetweenUpdates: z.number().int().positive(),
    maxSectionTokens: z.number().int().positive(),
    maxTotalTokens: z.number().int().positive(),
  }),
  compaction: z.object({
    contextWindow: z.number().int().positive(),
    maxOutputTokens: z.number().int().positive(),
    summaryOutputReserve: z.number().int().positive(),
    autoCompactBuffer: z.number().int().positive(),
    warningBuffer: z.number().int().positive(),
    maxConsecutiveFailures: z.number().int().positive(),
    keepMinTokens: z.number().int().positive(),
    keepMinTextMessages: z.number().int().positive(),
    keepMaxTokens: z.number().int().positive(),
    waitForUpdateMs: z.number().int().nonnegative(),
    staleUpdateMs: z.number().int().nonnegative(),
    summarySectionChars: z.number().int().positive(),
    restoredFiles: z.number().int().nonnegative(),
    restoredFileTokens: z.number().int().positive(),
    restoredTotalTokens: z.number().int().positive(),
  }),
  autoMemory: z.object({
    indexMaxLines: z.number().int().positive(),
    indexMaxChars: z.number().int().positive(),
    extractEveryTurns: z.number().int().positive(),
    extractorMaxTurns: z.number().int().positive(),
    recallMaxFiles: z.number().int().positive(),
    recallMaxLines: z.number().int().positive(),
    recallMaxBytes: z.number().int().positive(),
    recallSessionBytes: z.number().int().positive(),
    staleDays: z.number().int().positive(),
  }),
  /** Memory consolidation's gates (Claude Code's autoDream numbers; docs/memory-upkeep.md). */
  consolidation: z.object({
    minHours: z.number().positive(),
    minSessions: z.number().int().nonnegative(),
    lockStaleMinutes: z.number().positive(),
    maxTurns: z.number().int().positive(),
  }),
  instructions: z.object({
    maxIncludeDepth: z.number().int().positive(),
    largeFileChars: z.number().int().positive(),
  }),
  teamSync: z.object({
    pullIntervalMs: z.number().int().positive(),
    pushDebounceMs: z.number().int().nonnegative(),
    maxFileBytes: z.number().int().positive(),
    maxBatchBytes: z.number().int().positive(),
    max412Retries: z.number().int().nonnegative(),
    tombstoneDays: z.number().int().positive(),
    backoffBaseMs: z.number().int().positive(),
    backoffCapMs: z.number().int().positive(),
    networkRetries: z.number().int().nonnegative(),
    unansweredBudgetMs: z.number().int().positive(),
    tokenRefreshLeadMs: z.number().int().nonnegative(),
  }),
  vault: z.object({
    maxFileBytes: z.number().int().positive(),
    writeFinishMs: z.number().int().nonnegative(),
    renameWindowMs: z.number().int().nonnegative(),
    historyDays: z.number().int().positive(),
    trashDays: z.number().int().positive(),
    historyMaxBytes: z.number().int().positive(),
    nearDuplicateJaccard: z.number().positive(),
  }),
  contextFeatures: z.object({
    clearTriggerTokens: z.number().int().positive(),
    clearKeepToolUses: z.number().int().nonnegative(),
    clearAtLeastTokens: z.number().int().nonnegative(),
    serverCompactionTriggerTokens: z.number().int().positive(),
  }),
  agent: z.object({
    maxTurns: z.number().int().positive(),
    readDefaultLines: z.number().int().positive(),
    readMaxLineChars: z.number().int().positive(),
    readMaxBytes: z.number().int().positive(),
    grepMaxFileBytes: z.number().int().positive(),
    globMaxResults: z.number().int().positive(),
  }),
});

export type MemoryConfig = z.infer<typeof memoryConfigSchema>;

export const defaultMemoryConfig: MemoryConfig = {
  sessionMemory: {
    minTokensToInit: 10_000,
    minTokensBetweenUpdates: 5_000,
    toolCallsBetweenUpdates: 3,
    maxSectionTokens: 2_000,
    maxTotalTokens: 12_000,
  },
  compaction: {
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
    summaryOutputReserve: 20_000,
    autoCompactBuffer: 13_000,
    warningBuffer: 20_000,
    maxConsecutiveFailures: 3,
    keepMinTokens: 10_000,
    keepMinTextMessages: 5,
    keepMaxTokens: 40_000,
    waitForUpdateMs: 15_000,
    staleUpdateMs: 60_000,
    summarySectionChars: 8_000,
    restoredFiles: 5,
    restoredFileTokens: 5_000,
    restoredTotalTokens: 50_000,
  },
  autoMemory: {
    indexMaxLines: 200,
    indexMaxChars: 25_000,
    extractEveryTurns: 1,
    extractorMaxTurns: 5,
    recallMaxFiles: 5,
    recallMaxLines: 200,
    recallMaxBytes: 4_096,
    recallSessionBytes: 60 * 1024,
    staleDays: 90,
  },
  consolidation: {
    minHours: 24,
    minSessions: 5,
    lockStaleMinutes: 60,
    maxTurns: 8,
  },
  instructions: {
    maxIncludeDepth: 4,
    largeFileChars: 40_000,
  },
  teamSync: {
    pullIntervalMs: 5 * 60_000,
    pushDebounceMs: 2_000,
    maxFileBytes: 250_000,
    maxBatchBytes: 200_000,
    max412Retries: 2,
    tombstoneDays: 30,
    // docs/memory.md#team-sync: network backoff 500 ms × 2^(n−1), cap 32 s; refresh tokens at least 60 s before expiry.
    backoffBaseMs: 500,
    backoffCapMs: 32_000,
    networkRetries: 5,
    // docs/memory.md#team-sync: one sync waits at most 60 s in all on a server that does not answer.
    unansweredBudgetMs: 60_000,
    tokenRefreshLeadMs: 60_000,
  },
  vault: {
    // docs/memory.md#vault-upkeep "Bad input": a file over this is listed, never loaded as text.
    maxFileBytes: 5 * 1024 * 1024,
    // STYLE.md watchers: awaitWriteFinish ~200 ms; an unlink + add inside the window is one rename.
    writeFinishMs: 200,
    renameWindowMs: 500,
    historyDays: 30,
    // docs/architecture.md#the-agent: a deleted conversation stays restorable (Undo) this long in `.strata/trash/`.
    trashDays: 30,
    historyMaxBytes: 100 * 1024 * 1024,
    nearDuplicateJaccard: 0.8,
  },
  contextFeatures: {
    // Well under the 167k notes-compaction threshold, so clearing buys room before a compaction is due;
    // at least 20k cleared at once, since every clearing rewrites the cached prefix.
    clearTriggerTokens: 100_000,
    clearKeepToolUses: 3,
    clearAtLeastTokens: 20_000,
    // The API's own default; its floor is 50,000.
    serverCompactionTriggerTokens: 150_000,
  },
  agent: {
    // docs/architecture.md#the-agent: Claude Code's Read defaults (2,000 lines, lines cut at 2,000 chars, 256 KB whole-file cap).
    maxTurns: 100,
    readDefaultLines: 2_000,
    readMaxLineChars: 2_000,
    readMaxBytes: 256 * 1024,
    grepMaxFileBytes: 5 * 1024 * 1024,
    globMaxResults: 100,
  },
};

/** A partial override, one level of sections deep, as stored in settings. */
export const memoryConfigOverrideSchema = z.object(
  Object.fromEntries(
    Object.entries(memoryConfigSchema.shape).map(([key, section]) => [key, section.partial().optional()]),
  ) as { [K in keyof MemoryConfig]: z.ZodOptional<z.ZodObject<{ [F in keyof MemoryConfig[K]]: z.ZodOptional<z.ZodNumber> }>> },
);

export type MemoryConfigOverride = z.infer<typeof memoryConfigOverrideSchema>;

export function resolveMemoryConfig(override: MemoryConfigOverride | undefined): MemoryConfig {
  const out = structuredClone(defaultMemoryConfig);
  for (const key of Object.keys(out) as (keyof MemoryConfig)[]) {
    Object.assign(out[key], override?.[key] ?? {});
  }
  return out;
}

/** docs/memory.md#compaction: window − min(maxOutput, 20,000) − 13,000. */
/** A config section given as it is, or as a getter read at each use so a settings change applies at once. */
export type LiveConfig<T extends object> = T | (() => T);

export function currentConfig<T extends object>(config: LiveConfig<T>): T {
  return typeof config === 'function' ? config() : config;
}

export function autoCompactThreshold(c: MemoryConfig['compaction']): number {
  return c.contextWindow - Math.min(c.maxOutputTokens, c.summaryOutputReserve) - c.autoCompactBuffer;
}
