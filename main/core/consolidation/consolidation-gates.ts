import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';

export type GateVerdict =
  | { due: true; sessionsSince: number; hoursSince: number | null }
  | { due: false; reason: 'too-soon' | 'too-few-sessions'; sessionsSince: number; hoursSince: number | null };

/** Conversations of the project whose transcript changed after `since` (all of them when never run). */
export async function sessionsTouchedSince(transcriptsDirs: readonly string[], since: number | null): Promise<number> {
  let count = 0;
  for (const dir of new Set(transcriptsDirs)) {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isFile() || !e.name.endsWith('.jsonl')) continue;
      const stat = await fs.stat(path.join(dir, e.name)).catch(() => null);
      if (stat && (since === null || stat.mtimeMs > since)) count++;
    }
  }
  return count;
}

/**
 * Claude Code's autoDream gates (docs/memory.md): at least `minHours` since the last pass and at least
 * `minSessions` conversations touched since. The first pass waits for the sessions only.
 */
export async function consolidationGates(input: {
  lastRunAt: number | null;
  now: number;
  transcriptsDirs: readonly string[];
  config: MemoryConfig['consolidation'];
}): Promise<GateVerdict> {
  const hoursSince = input.lastRunAt === null ? null : (input.now - input.lastRunAt) / 3_600_000;
  const sessionsSince = await sessionsTouchedSince(input.transcriptsDirs, input.lastRunAt);
  if (hoursSince !== null && hoursSince < input.config.minHours) return { due: false, reason: 'too-soon', sessionsSince, hoursSince };
  if (sessionsSince < input.config.minSessions) return { due: false, reason: 'too-few-sessions', sessionsSince, hoursSince };
  return { due: true, sessionsSince, hoursSince };
}
