import { useStore } from '../store';
import { api } from './index';

/**
 * Reads the vault's file list into the store; a failure goes to the banner. On its own so the app's and the
 * team's actions refresh the list without importing vault-actions, which opens conversations through them.
 */
export async function loadFiles(): Promise<void> {
  const files = await api.invoke['vault:list-files']({});
  if (files.ok) useStore.getState().setFiles(files.value);
  else useStore.getState().showError(files.error);
}
