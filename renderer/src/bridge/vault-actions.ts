import type { MemoryType, VaultChange } from '../../../common/domain/vault';
import type { Result } from '../../../common/result';
import { useStore, type SearchFilters } from '../store';
import { api } from './index';
import { isTranscriptPath, openConversationFile } from './open-conversation';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

export async function loadFiles(): Promise<void> {
  const files = take(await api.invoke['vault:list-files']({}));
  if (files) useStore.getState().setFiles(files);
}

/** Opens a vault file; a transcript opens as its conversation in Chat (at `term`, when a search found it). */
export async function openFile(path: string, term?: string): Promise<void> {
  if (isTranscriptPath(path) && (await openConversationFile(path, term))) return;
  const s = useStore.getState();
  s.select(path, 'file');
  const file = take(await api.invoke['vault:read-file']({ path }));
  if (file && useStore.getState().selectedPath === path) useStore.getState().setOpen(file);
}

/**
 * A change on disk: refresh the list; for the open file, reload it — unless the user has unsaved
 * edits, then keep both and let them choose (issue: "unsaved edits are not lost").
 */
async function onFilesChanged(changes: VaultChange[]): Promise<void> {
  await loadFiles();
  const s = useStore.getState();
  const open = s.open;
  if (!open) return;
  const hit = changes.find((c) => c.path === open.meta.path || c.from === open.meta.path);
  if (!hit || !hit.external) return;
  if (hit.kind === 'removed') {
    s.showError({ code: 'not_found', message: `${open.meta.path} was deleted outside Strata. Your text is still in the editor.` });
    return;
  }
  const fresh = await api.invoke['vault:read-file']({ path: open.meta.path });
  if (!fresh.ok || fresh.value.hash === open.hash) return;
  if (s.draft !== null && s.draft !== open.text) s.setExternalVersion(fresh.value);
  else s.setOpen(fresh.value);
}

export function wireVaultEvents(): () => void {
  return api.on['vault:did-change-files']((changes) => void onFilesChanged(changes));
}

export async function saveOpenFile(): Promise<boolean> {
  const s = useStore.getState();
  if (!s.open || s.draft === null) return false;
  const saved = take(await api.invoke['vault:write-file']({ path: s.open.meta.path, text: s.draft, baseHash: s.open.hash }));
  if (!saved) return false;
  s.setOpen(saved);
  s.setDraft(null);
  s.setExternalVersion(null);
  return true;
}

/** Resolves an external change against unsaved edits: keep mine (save over theirs) or take theirs. */
export async function resolveExternal(choice: 'mine' | 'theirs'): Promise<void> {
  const s = useStore.getState();
  const theirs = s.externalVersion;
  if (!theirs) return;
  if (choice === 'theirs') {
    s.setOpen(theirs);
    s.setDraft(null);
    s.setExternalVersion(null);
  } else {
    s.setOpen(theirs);
    await saveOpenFile();
  }
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
  const file = take(await api.invoke['vault:create-memory'](input));
  if (!file) return false;
  await loadFiles();
  useStore.getState().select(file.meta.path);
  useStore.getState().setOpen(file);
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
        }
      })(),
  });
}

export async function runSearch(query: string, filters: SearchFilters): Promise<void> {
  const s = useStore.getState();
  if (!query.trim()) {
    s.setSearch(query, filters, []);
    return;
  }
  const hits = take(
    await api.invoke['vault:search']({
      query,
      ...(filters.scope ? { scope: filters.scope } : {}),
      ...(filters.type ? { type: filters.type } : {}),
      limit: 50,
    }),
  );
  if (useStore.getState().searchQuery !== query && hits === null) return;
  s.setSearch(query, filters, hits ?? []);
}
