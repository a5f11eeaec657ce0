import type { MemoryConfig } from '../../../common/config.js';
import type { IndexLine, MemoryIndexView } from '../../../common/domain/vault.js';
import { INDEX_FILE_NAME, parseIndex } from '../../../common/memory-file/index.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';
import { estimateTextTokens } from '../llm/index.js';

/**
 * MEMORY.md, the index of a memory folder (docs/memory.md#auto-memory): one line a memory, `- [Title](file.md) — hook`.
 * The model owns these lines; the vault edits them only for the user's own actions (create, rename,
 * delete, Undo, a one-click fix) and otherwise only reports broken pointers and unindexed files.
 */

export const INDEX_FILE = INDEX_FILE_NAME;
export { parseIndex, retargetIndex, removeFromIndex } from '../../../common/memory-file/index.js';

/**
 * The MEMORY.md view of one memory folder. `memoryFiles` are the folder's memory files relative to
 * it (`topic.md`, for team memory possibly `sub/topic.md`), MEMORY.md itself excluded.
 */
export function buildIndexView(
  projectSlug: string,
  indexText: string | null,
  memoryFiles: string[],
  config: MemoryConfig['autoMemory'],
): MemoryIndexView {
  const text = indexText ?? '';
  const existing = new Set(memoryFiles);
  const parsed = parseIndex(text);
  const lines: IndexLine[] = parsed.map((p) => ({ ...p, broken: !existing.has(p.target) }));
  const pointed = new Set(parsed.map((p) => p.target));
  const lineCount = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return {
    projectSlug,
    lines,
    missing: memoryFiles.filter((f) => !pointed.has(f)).sort(naturalCompare),
    headroom: {
      lines: lineCount,
      maxLines: config.indexMaxLines,
      chars: text.length,
      maxChars: config.indexMaxChars,
      tokens: estimateTextTokens(text),
    },
  };
}
