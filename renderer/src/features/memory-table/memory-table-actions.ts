import { todayOf, withMemoryDate } from '../../../../common/memory-file/freshness';
import type { Result } from '../../../../common/result';
import { api } from '../../bridge';
import { loadFiles } from '../../bridge/vault-actions';
import { useStore } from '../../store';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

const plural = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'memory' : 'memories'}`;

/**
 * Says how far a bulk action is ("Deleting 120 of 10,000 memories…"): each memory is one request to
 * main, so thousands take a while, and the toast shows it is still going.
 */
function progress(verb: string, done: number, total: number): void {
  if (total < 2) return;
  useStore.getState().showToast({ text: `${verb} ${(done + 1).toLocaleString()} of ${plural(total)}…` });
}

/** Undoes a list of vault deletes (and removes the copies a move made first, their use counts going back). */
async function undoAll(tokens: string[], copies: string[], moves: { from: string; to: string }[] = []): Promise<void> {
  for (const [i, undoToken] of tokens.entries()) {
    progress('Undoing', i, tokens.length);
    take(await api.invoke['vault:undo']({ undoToken }));
  }
  for (const path of copies) take(await api.invoke['vault:delete']({ path }));
  if (moves.length > 0) take(await api.invoke['memory:usage-move']({ moves: moves.map(({ from, to }) => ({ from: to, to: from })) }));
  useStore.getState().showToast(null);
  await loadFiles();
}

/** Deletes the chosen memories (each a soft delete, its index line too) with one Undo for all. */
export async function deleteMemories(paths: readonly string[]): Promise<void> {
  const tokens: string[] = [];
  for (const [i, path] of paths.entries()) {
    progress('Deleting', i, paths.length);
    const done = take(await api.invoke['vault:delete']({ path }));
    if (done) tokens.push(done.undoToken);
  }
  await loadFiles();
  useStore.getState().showToast({ text: `Deleted ${plural(tokens.length)}.`, actionLabel: 'Undo', action: () => void undoAll(tokens, []) });
}

/**
 * Moves memories between a project's own memory and its team memory: the copy is written (with its
 * MEMORY.md line) before the original is deleted, so a failure midway loses nothing; one Undo for all.
 * Each moved memory keeps its use count (docs/memory.md#provenance-and-use).
 */
export async function moveMemories(paths: readonly string[], toTeam: boolean): Promise<void> {
  const tokens: string[] = [];
  const copies: string[] = [];
  const moves: { from: string; to: string }[] = [];
  for (const [i, path] of paths.entries()) {
    progress('Moving', i, paths.length);
    const m = /^projects\/([^/]+)\/memory\/(?:team\/)?([^/]+\.md)$/.exec(path);
    if (!m) continue;
    const [, projectSlug, fileName] = m as unknown as [string, string, string];
    const target = `projects/${projectSlug}/memory/${toTeam ? 'team/' : ''}${fileName}`;
    if (target === path) continue;
    const file = take(await api.invoke['vault:read-file']({ path }));
    if (!file) break;
    if (!take(await api.invoke['vault:write-file']({ path: target, text: file.text, baseHash: null }))) break;
    take(await api.invoke['vault:fix-index']({ projectSlug, team: toTeam, fix: 'add-missing', target: fileName }));
    copies.push(target);
    const done = take(await api.invoke['vault:delete']({ path }));
    if (!done) break;
    tokens.push(done.undoToken);
    moves.push({ from: path, to: target });
  }
  if (moves.length > 0) take(await api.invoke['memory:usage-move']({ moves }));
  await loadFiles();
  useStore.getState().showToast({
    text: `Moved ${plural(tokens.length)} to ${toTeam ? 'team memory' : 'project memory'}.`,
    actionLabel: 'Undo',
    action: () => void undoAll(tokens, copies, moves),
  });
}

/**
 * Retires memories without deleting them (docs/memory.md#freshness): each gets `validUntil` set to
 * yesterday, so recall tells the agent it is no longer true and Health lists it to renew or delete.
 * Each write goes through the vault (history, and refused if the file changed meanwhile); one Undo
 * puts every earlier text back.
 */
export async function retireMemories(paths: readonly string[]): Promise<void> {
  const yesterday = todayOf(Date.now() - 86_400_000);
  const done: { path: string; text: string; hash: string }[] = [];
  for (const [i, path] of paths.entries()) {
    progress('Retiring', i, paths.length);
    const file = take(await api.invoke['vault:read-file']({ path }));
    if (!file) break;
    const retired = withMemoryDate(file.text, 'validUntil', yesterday);
    if (retired === null) {
      useStore.getState().showError({ code: 'invalid_request', message: `${file.meta.title} has no readable frontmatter to date; repair it in Health first.` });
      continue;
    }
    const written = take(await api.invoke['vault:write-file']({ path, text: retired, baseHash: file.hash }));
    if (!written) break;
    done.push({ path, text: file.text, hash: written.hash });
  }
  await loadFiles();
  useStore.getState().showToast({
    text: `Retired ${plural(done.length)}: no longer recalled as true.`,
    actionLabel: 'Undo',
    action: () =>
      void (async () => {
        for (const [i, d] of done.entries()) {
          progress('Undoing', i, done.length);
          take(await api.invoke['vault:write-file']({ path: d.path, text: d.text, baseHash: d.hash }));
        }
        useStore.getState().showToast(null);
        await loadFiles();
      })(),
  });
}
