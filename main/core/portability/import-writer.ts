import { AppFailure } from '../../../common/result.js';
import type { ImportItem, ImportResult } from '../../../common/domain/portability.js';
import { memoryDir } from '../vault/index.js';
import type { Vault } from '../vault/index.js';
import { sameMemoryKey } from './import-naming.js';
import { importFileText, scanImportItem, type ImportScan } from './import-secrets.js';

const VAULT_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.md$/;

/**
 * Writes the items the user kept into a project's memory folder through the vault's own write path:
 * each file atomically, with history, then its MEMORY.md line. Each file is scanned again here, whatever
 * the preview said (the renderer's items are not trusted): one with a secret the user did not mark
 * "Not a secret" is held back, with its findings. A memory already in the folder (an import run again
 * after it was stopped) is not written twice; its index line is made sure of. A name already used by
 * another memory gets a `_2`, `_3`… suffix, so an import never writes over one. A failure stops the
 * import and says which items were written before it.
 */
export async function writeImport(vault: Vault, target: { projectSlug: string; team: boolean }, items: readonly ImportItem[], scan: ImportScan): Promise<ImportResult> {
  const dir = memoryDir(target.projectSlug, target.team);
  const inFolder = vault.list().filter((m) => m.path.startsWith(`${dir}/`));
  const taken = new Set(inFolder.map((m) => m.path.slice(dir.length + 1).toLowerCase()));
  taken.add('memory.md');
  const present = new Map<string, string>();
  for (const m of inFolder) {
    const doc = vault.docAt(m.path);
    if (m.path.slice(dir.length + 1).includes('/') || !doc?.text || m.path.endsWith('/MEMORY.md')) continue;
    const key = sameMemoryKey(doc.text);
    if (!present.has(key)) present.set(key, m.path);
  }
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
    const text = importFileText(checked, shape, modified);
    const key = sameMemoryKey(text);
    const existing = present.get(key);
    let fileName = existing?.slice(dir.length + 1) ?? item.fileName;
    try {
      if (existing === undefined) {
        const stem = item.fileName.replace(/\.md$/, '');
        for (let n = 2; taken.has(fileName.toLowerCase()); n++) fileName = `${stem}_${n}.md`;
        taken.add(fileName.toLowerCase());
        await vault.write(`${dir}/${fileName}`, text, { baseHash: null, reason: 'import' });
      }
      // Also for a memory already there: an import stopped between a file and its line left no line.
      await vault.fixIndex(target.projectSlug, target.team, 'add-missing', fileName);
    } catch (error) {
      const done = result.written.length ? ` (already written: ${result.written.join(', ')})` : '';
      throw new AppFailure(error instanceof AppFailure ? error.code : 'io_error', `${fileName}: ${(error as Error).message}${done}`);
    }
    if (existing === undefined) {
      present.set(key, `${dir}/${fileName}`);
      result.written.push(`${dir}/${fileName}`);
    } else result.alreadyImported.push(existing);
  }
  return result;
}
