import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';
import { estimateTextTokens } from '../llm/index.js';
import { isMessageRecord, type TranscriptRecord } from '../transcripts/index.js';

type RestoreConfig = Pick<MemoryConfig['compaction'], 'restoredFiles' | 'restoredFileTokens' | 'restoredTotalTokens'>;

/** Instruction files are re-injected by `rebuildContext()`, not restored as files (docs/memory.md#compaction). */
const INSTRUCTION_FILES = new Set(['CLAUDE.md', 'CLAUDE.local.md', 'MEMORY.md']);

/** Paths the Read tool read in these records, the most recent first, each once. */
export function recentlyReadFiles(records: readonly TranscriptRecord[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i]!;
    if (!isMessageRecord(r) || r.message.role !== 'assistant' || typeof r.message.content === 'string') continue;
    for (const block of [...r.message.content].reverse()) {
      if (block.type !== 'tool_use' || block.name !== 'Read') continue;
      const file = (block.input as { file_path?: unknown } | null)?.file_path;
      if (typeof file !== 'string' || !path.isAbsolute(file) || seen.has(file)) continue;
      seen.add(file);
      out.push(file);
    }
  }
  return out;
}

export interface RestoredFile {
  path: string;
  content: string;
  truncated: boolean;
  tokens: number;
}

export type ReadText = (file: string) => Promise<string>;

/**
 * docs/memory.md#compaction legacy path: the five most recently read files are read again, each cut to 5,000 tokens,
 * and kept greedily, most recent first, while the total stays within 50,000. Files that no longer
 * exist, and instruction files, are skipped.
 */
export async function restoreRecentFiles(
  records: readonly TranscriptRecord[],
  config: RestoreConfig,
  readText: ReadText = (file) => fs.readFile(file, 'utf8'),
): Promise<RestoredFile[]> {
  const candidates = recentlyReadFiles(records)
    .filter((f) => !INSTRUCTION_FILES.has(path.basename(f)))
    .slice(0, config.restoredFiles);
  const out: RestoredFile[] = [];
  let total = 0;
  for (const file of candidates) {
    let text: string;
    try {
      text = await readText(file);
    } catch {
      continue;
    }
    const maxChars = config.restoredFileTokens * 4;
    const truncated = text.length > maxChars;
    const content = truncated ? text.slice(0, maxChars) : text;
    const tokens = estimateTextTokens(content);
    if (total + tokens > config.restoredTotalTokens) continue;
    total += tokens;
    out.push({ path: file, content, truncated, tokens });
  }
  return out;
}

export function restoredFileText(file: RestoredFile): string {
  const note = file.truncated ? ' (cut to its first part; Read it for the rest)' : '';
  return `This file was read before the conversation was compacted. Its current contents${note}:\n\n<file path="${file.path}">\n${file.content}\n</file>`;
}
