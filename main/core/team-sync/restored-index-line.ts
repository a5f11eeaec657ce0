import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';
import type { IndexLineSkipped } from '../../../common/domain/vault.js';
import { parseIndex, parseMemoryFile } from '../../../common/memory-file/index.js';
import { addLinesThatFit } from '../vault/index.js';
import { readLocalFile, writeLocalFile } from './local-tree.js';

export type IndexCaps = Pick<MemoryConfig['autoMemory'], 'indexMaxLines' | 'indexMaxChars'>;

const INDEX = 'MEMORY.md';

/**
 * A team memory put back from Recently deleted gets its line in the team folder's MEMORY.md again
 * (from its frontmatter), as a memory the vault restores does — and only under the caps the agent reads
 * that index to (docs/memory.md#memory-index), the same as the folder's own. The file is restored
 * either way; a line that does not fit is left out and returned for the user to hear about. The index
 * itself, a file that is not a memory, one the index lists already, or a folder with no index is left alone.
 */
export async function addRestoredIndexLine(teamDir: string, key: string, text: string, caps: IndexCaps): Promise<IndexLineSkipped | null> {
  if (key === INDEX || !key.endsWith('.md')) return null;
  // A team folder without an index gets none from a restore: that would be a new shared file for every teammate.
  const index = (await readLocalFile(teamDir, INDEX))?.text ?? null;
  if (index === null || parseIndex(index).some((l) => l.target === key)) return null;
  const memory = parseMemoryFile(text);
  const fit = addLinesThatFit(index, [{ target: key, title: memory.name?.trim() || key, hook: memory.description ?? '' }], caps);
  if (fit.added > 0) {
    await writeLocalFile(teamDir, INDEX, fit.text, null);
    return null;
  }
  return skippedTeamIndexLine(teamDir, fit.limit ?? 'lines', caps);
}

/** What the user hears when a team index line was left out: the cap, and the project whose team index it is. */
export function skippedTeamIndexLine(teamDir: string, limit: IndexLineSkipped['limit'], caps: IndexCaps): IndexLineSkipped {
  // `<vault>/projects/<slug>/memory/team`: the slug names the project.
  const projectSlug = path.basename(path.dirname(path.dirname(path.resolve(teamDir))));
  return { limit, maxLines: caps.indexMaxLines, maxChars: caps.indexMaxChars, projectSlug, team: true };
}
