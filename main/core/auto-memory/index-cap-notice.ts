import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';
import { nearDuplicates } from '../vault/index.js';
import { scanMemoryFiles } from './memory-files.js';
import { indexHeadroom, truncateIndex } from './memory-index.js';
import { INDEX_FILE_NAME } from './memory-paths.js';

/** The share of MEMORY.md's caps (docs/memory.md#auto-memory: 200 lines / 25,000 characters) at which the user is warned. */
const WARN_AT = 0.8;

/**
 * A notice before MEMORY.md reaches its cap (docs/memory.md#auto-memory): how full it is and which memories look
 * like they could be merged (same description, or mostly the same text), else the type with the most
 * entries. Null while there is room. `label` names the index (the team's is cut the same way).
 */
export async function indexCapNotice(memoryDir: string, config: MemoryConfig, label = 'MEMORY.md'): Promise<string | null> {
  const raw = await fs.readFile(path.join(memoryDir, INDEX_FILE_NAME), 'utf8').catch(() => null);
  if (raw === null) return null;
  const caps = { maxLines: config.autoMemory.indexMaxLines, maxChars: config.autoMemory.indexMaxChars };
  const room = indexHeadroom(raw, caps);
  if (room.fill < WARN_AT) return null;
  const full = room.fill >= 1 ? `is over its limit, so ${whatIsCut(raw, caps)} no longer loaded` : `is ${Math.round(room.fill * 100)}% full`;
  const files = (await scanMemoryFiles(memoryDir)).filter((f) => f.relPath !== INDEX_FILE_NAME);
  const pairs = await nearDuplicates(
    files.map((f) => ({ path: f.relPath, group: '', description: f.description ?? '', body: f.body })),
    Math.min(config.vault.nearDuplicateJaccard, 0.6),
  );
  let suggestion: string;
  if (pairs.length > 0) {
    suggestion = `These look alike and could be merged: ${pairs
      .slice(0, 3)
      .map((p) => `${p.a} + ${p.b}`)
      .join('; ')}.`;
  } else {
    const byType = new Map<string, number>();
    for (const f of files) byType.set(f.type ?? 'untyped', (byType.get(f.type ?? 'untyped') ?? 0) + 1);
    const [type, count] = [...byType].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
    suggestion = count > 1 ? `Consider merging some of the ${count} ${type} memories into fewer files.` : 'Consider removing memories you no longer need.';
  }
  return `${label} ${full} (${room.lines}/${room.maxLines} lines, ${room.chars}/${room.maxChars} characters). ${suggestion}`;
}

/** Names what load-time truncation leaves out (docs/memory.md#auto-memory): the line range and the first entry cut. */
function whatIsCut(raw: string, caps: { maxLines: number; maxChars: number }): string {
  const cut = truncateIndex(raw, caps).cutLines;
  if (!cut) return 'its last lines are';
  const lines = raw.trim().split('\n');
  const first = (lines[cut.from - 1] ?? '').trim();
  const title = /\[([^\]]*)\]/.exec(first)?.[1]?.trim() || first.slice(0, 80);
  const range = cut.from === cut.to ? `line ${cut.from}` : `lines ${cut.from}–${cut.to}`;
  return `${range} (from "${title}" on) ${cut.from === cut.to ? 'is' : 'are'}`;
}
