import { AppFailure } from '../../../common/result.js';
import type { ImportItem, ImportResult } from '../../../common/domain/portability.js';
import { memoryDir } from '../vault/index.js';
import type { Vault } from '../vault/index.js';
import { importFileText, scanImportItem, type ImportScan } from './import-secrets.js';

const VAULT_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/;

/**
 * Writes the items the user kept into a project's memory folder through the vault's own write path:
 * each file atomically, with history, then its MEMORY.md line. Each file is scanned again here, whatever
 * the preview said (the renderer's items are not trusted): one with a secret the user did not mark
 * "Not a secret" is held back, with its findings. A name already used in the folder gets a `_2`, `_3`…
 * suffix, so an import never writes over a memory. A failure stops the import and says which items
 * were written before it.
 */
export async function writeImport(vault: Vault, target: { projectSlug: string; team: boolean }, items: readonly ImportItem[], scan: ImportScan): Promise<ImportResult> {
  const dir = memoryDir(target.projectSlug, target.team);
  const taken = new Set(vault.list().filter((m) => m.path.startsWith(`${dir}/`)).map((m) => m.path.slice(dir.length + 1).toLowerCase()));
  taken.add('memory.md');
  const result: ImportResult = { written: [], alreadyImported: [], heldBack: [] };
  const shape = vault.memoryShape();
  for (const item of items) {
    if (!VAULT_FILE_NAME.test(item.fileName)) throw new AppFailure('invalid_request', `Not a memory file name: ${item.fileName}`);
    // In the shape chosen in Settings, like every memory Strata writes (docs/claude-code-parity.md#the-memory-file-shapes).
    const modified = new Date().toISOString();
    const checked = scanImportItem(item, scan, shape, modified);
    if (checked.findings) {
      result.heldBack.push(checked);
      continue;
    }
    const stem = item.fileName.replace(/\.md$/, '');
    let fileName = item.fileName;
    for (let n = 2; taken.has(fileName.toLowerCase()); n++) fileName = `${stem}_${n}.md`;
    taken.add(fileName.toLowerCase());
    try {
      await vault.write(`${dir}/${fileName}`, importFileText(checked, shape, modified), { baseHash: null, reason: 'import' });
      await vault.fixIndex(target.projectSlug, target.team, 'add-missing', fileName);
    } catch (error) {
      const done = result.written.length ? ` (already written: ${result.written.join(', ')})` : '';
      throw new AppFailure(error instanceof AppFailure ? error.code : 'io_error', `${fileName}: ${(error as Error).message}${done}`);
    }
    result.written.push(`${dir}/${fileName}`);
  }
  return result;
}
