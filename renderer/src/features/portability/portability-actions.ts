import { bareImportItem, type ImportItem, type ImportPreview, type ImportResult } from '../../../../common/domain/portability';
import type { Result } from '../../../../common/result';
import { api } from '../../bridge';
import { loadFiles } from '../../bridge/vault-actions';
import { useStore } from '../../store';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

export async function previewPaste(source: 'chatgpt' | 'claude' | 'other', text: string): Promise<ImportPreview | null> {
  return take(await api.invoke['memory:import-paste-preview']({ source, text }));
}

export async function previewNotes(path: string): Promise<ImportPreview | null> {
  return take(await api.invoke['memory:import-notes-preview']({ path }));
}

const count = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;

/**
 * Writes the kept items; main scans each again and says what it held back and what was already there.
 * The toast's Undo is `undo`, the one the written list offers too: it takes back the whole import.
 */
export async function writeItems(project: string, team: boolean, items: ImportItem[], undo: (result: ImportResult) => void): Promise<ImportResult | null> {
  const result = take(await api.invoke['memory:import-write']({ project, team, items: items.map(bareImportItem) }));
  if (!result) return null;
  // The written list names each memory by its title, which the file list holds once it is read again.
  await loadFiles();
  const parts = [
    `Imported ${count(result.written.length)}`,
    ...(result.alreadyImported.length ? [`${count(result.alreadyImported.length)} already there`] : []),
    ...(result.heldBack.length ? [`${result.heldBack.length} kept out for a possible secret`] : []),
  ];
  useStore.getState().showToast({ text: parts.join(' · '), ...(result.written.length ? { actionLabel: 'Undo', action: () => undo(result) } : {}) });
  return result;
}

/**
 * Takes back a whole import: each memory it wrote is soft-deleted with its MEMORY.md line (it stays in
 * Recently deleted). Returns the undo tokens that bring them back, as many as were deleted.
 */
export async function undoImport(written: readonly string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const path of written) {
    const done = take(await api.invoke['vault:delete']({ path }));
    if (!done) break;
    tokens.push(done.undoToken);
  }
  await loadFiles();
  useStore.getState().showToast({ text: `Import undone: ${count(tokens.length)} removed.` });
  return tokens;
}

/** Brings back what `undoImport` removed. */
export async function redoImport(tokens: readonly string[]): Promise<void> {
  for (const undoToken of tokens) if (!take(await api.invoke['vault:undo']({ undoToken }))) break;
  await loadFiles();
  useStore.getState().showToast(null);
}

/** Asks main for the export and hands it to the browser as a download (a save dialog in Electron). */
export async function downloadExport(project: string | undefined, format: 'zip' | 'markdown'): Promise<boolean> {
  const out = take(await api.invoke['memory:export']({ ...(project ? { project } : {}), format }));
  if (!out) return false;
  const blob = out.base64 !== undefined
    ? new Blob([Uint8Array.from(atob(out.base64), (c) => c.charCodeAt(0))], { type: 'application/zip' })
    : new Blob([out.text ?? ''], { type: 'text/markdown;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = out.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return true;
}

/** The one markdown document, to copy and paste into another assistant. */
export async function exportText(project: string | undefined): Promise<string | null> {
  const out = take(await api.invoke['memory:export']({ ...(project ? { project } : {}), format: 'markdown' }));
  return out?.text ?? null;
}
