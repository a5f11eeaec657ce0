import type { ConsolidationChangeset } from '../../../../common/domain/consolidation';
import type { Result } from '../../../../common/result';
import { api } from '../../bridge';
import { showFile } from '../../bridge/vault-actions';
import { useStore } from '../../store';
import { indexSkippedToast } from '../vault/index-skipped';

function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

export async function loadChangeset(project: string): Promise<ConsolidationChangeset | null> {
  return take(await api.invoke['memory:consolidation-get']({ project }));
}

const told: Record<string, string> = {
  nothing: 'Memory is tidy: nothing to change.',
  locked: 'A tidy-up is already running for this project.',
  'pending-review': 'Review the waiting tidy-up first.',
};

/** "Tidy memory now"; the result arrives as the changeset (or a short note). */
export async function tidyNow(project: string): Promise<ConsolidationChangeset | null> {
  const out = take(await api.invoke['memory:consolidation-run']({ project }));
  if (!out) return null;
  const note = told[out.outcome];
  if (note) useStore.getState().showToast({ text: note });
  return out.changeset;
}

export async function resolveItems(project: string, id: string, accept: string[], reject: string[]): Promise<ConsolidationChangeset | null> {
  return take(await api.invoke['memory:consolidation-resolve']({ project, id, accept, reject }));
}

/** Undo of one applied change; a memory brought back whose line a full MEMORY.md left out is told, with the tidy-up. */
export async function undoItem(project: string, id: string, itemId: string): Promise<ConsolidationChangeset | null> {
  const undone = take(await api.invoke['memory:consolidation-undo']({ project, id, itemId }));
  if (!undone) return null;
  const { indexSkipped, ...changeset } = undone;
  if (indexSkipped) {
    const item = changeset.items.find((i) => i.id === itemId);
    useStore.getState().showToast(indexSkippedToast(`Brought back “${item?.title ?? 'the memory'}”.`, indexSkipped, showFile));
  }
  return changeset;
}
