import type { ImportItem, ImportPreview } from '../../../../common/domain/portability';
import type { Result } from '../../../../common/result';
import { api } from '../../bridge';
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

export async function writeItems(project: string, team: boolean, items: ImportItem[]): Promise<string[] | null> {
  const result = take(await api.invoke['memory:import-write']({ project, team, items }));
  if (!result) return null;
  useStore.getState().showToast({ text: `Imported ${result.written.length} ${result.written.length === 1 ? 'memory' : 'memories'}` });
  return result.written;
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
