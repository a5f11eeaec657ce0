import type { MemoryType, VaultChange } from '../../../common/domain/vault';
import type { Result } from '../../../common/result';
import { useStore, type SearchFilters } from '../store';
import { api } from './index';
import { onDiskChange, saveNow } from './vault-autosave';
import { isTranscriptPath, openConversationFile } from './open-conversation';
import { loadFiles } from './vault-list';
import { indexSkippedToast } from '../features/vault/index-skipped';

export { loadFiles } from './vault-list';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

/** Shows a vault file from anywhere in the app (a toast's action, Health): the vault screen with the file open. */
export function showFile(path: string): void {
  useStore.getState().setScreen('vault');
  void openFile(path);
}

/**
 * Opens a vault file; a transcript opens as its conversation in Chat (at `term`, when a search found it),
 * or read-only as its records when its project is not open — never as a file to edit.
 */
export async function openFile(path: string, term?: string): Promise<void> {
  if (isTranscriptPath(path)) {
    if (!(await openConversationFile(path, term))) useStore.getState().setRawTranscript(path);
    return;
  }
  const s = useStore.getState();
  s.select(path, 'file');
  // Leaving the previous file started its save; a reopened file is read after it landed.
  await saveNow();
  const file = take(await api.invoke['vault:read-file']({ path }));
  if (file && useStore.getState().selectedPath === path) useStore.getState().setOpen(file);
}

/**
 * A change on disk: refresh the list; the open file follows it, merged with unsaved text
 * (vault-autosave's onDiskChange).
 */
async function onFilesChanged(changes: VaultChange[]): Promise<void> {
  await loadFiles();
  const open = useStore.getState().open;
  if (!open) return;
  const hit = changes.find((c) => c.path === open.meta.path || c.from === open.meta.path);
  if (!hit || !hit.external) return;
  if (hit.kind === 'removed') {
    useStore.getState().showError({ code: 'not_found', message: `${open.meta.title} was deleted outside Strata. Your text is still in the editor.` });
    return;
  }
  const fresh = await api.invoke['vault:read-file']({ path: open.meta.path });
  if (fresh.ok) await onDiskChange(fresh.value);
}

export function wireVaultEvents(): () => void {
  return api.on['vault:did-change-files']((changes) => void onFilesChanged(changes));
}

/** Creates a memory (its MEMORY.md line included) in a memory folder named by slug or by an opened project. */
export async function createMemory(input: {
  projectSlug?: string;
  project?: string;
  team: boolean;
  fileName: string;
  name: string;
  description: string;
  type: MemoryType;
  body: string;
}): Promise<boolean> {
  const written = take(await api.invoke['vault:create-memory'](input));
  if (!written) return false;
  const { indexSkipped, ...file } = written;
  await loadFiles();
  useStore.getState().select(file.meta.path);
  useStore.getState().setOpen(file);
  if (indexSkipped) useStore.getState().showToast(indexSkippedToast(`Saved “${file.meta.title}”.`, indexSkipped, showFile));
  return true;
}

export async function renameFile(path: string, newFileName: string): Promise<void> {
  const meta = take(await api.invoke['vault:rename']({ path, newFileName }));
  if (!meta) return;
  await loadFiles();
  await openFile(meta.path);
}

/** Soft delete with an Undo toast; `stay` keeps the current panel (the health panel deletes from a list). */
export async function deleteFile(path: string, { stay = false } = {}): Promise<void> {
  const done = take(await api.invoke['vault:delete']({ path }));
  if (!done) return;
  const s = useStore.getState();
  if (!stay || s.selectedPath === path) {
    s.select(null, stay ? s.panel : 'file');
    s.setOpen(null);
  }
  await loadFiles();
  s.showToast({
    text: `Deleted ${path.split('/').pop()}.`,
    actionLabel: 'Undo',
    action: () =>
      void (async () => {
        const restored = take(await api.invoke['vault:undo']({ undoToken: done.undoToken }));
        useStore.getState().showToast(null);
        if (restored) {
          await loadFiles();
          await openFile(restored.restored);
          if (restored.indexSkipped) useStore.getState().showToast(indexSkippedToast(`Brought back ${path.split('/').pop()}.`, restored.indexSkipped, showFile));
        }
      })(),
  });
}

/** The most hits one search asks for (the contract's cap); "Show more" grows the page up to it. */
export const SEARCH_MAX = 200;

/** The latest search asked for: an answer to an earlier one that arrives after it is dropped. */
let searchSeq = 0;

/**
 * Runs a search for `shown` hits, asking for one more to know whether others match; returns that
 * (the store holds only the `shown` ones).
 */
export async function runSearch(query: string, filters: SearchFilters, shown = 50): Promise<boolean> {
  const s = useStore.getState();
  const seq = ++searchSeq;
  if (!query.trim()) {
    s.setSearch(query, filters, []);
    return false;
  }
  const hits = take(
    await api.invoke['vault:search']({
      query,
      ...(filters.scope ? { scope: filters.scope } : {}),
      ...(filters.type ? { type: filters.type } : {}),
      limit: Math.min(shown + 1, SEARCH_MAX),
    }),
  );
  if (seq !== searchSeq) return false;
  if (useStore.getState().searchQuery !== query && hits === null) return false;
  s.setSearch(query, filters, (hits ?? []).slice(0, shown));
  return (hits?.length ?? 0) > shown;
}
