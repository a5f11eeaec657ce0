import { create, type StateCreator } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createAppSlice, type AppSlice } from './app-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createProjectsSlice, type ProjectsSlice } from './projects-slice';
import { createChatSlice, type ChatSlice } from './chat-slice';
import { createVaultSlice, type VaultSlice } from './vault-slice';
import { createTeamSlice, type TeamSlice } from './team-slice';

/** The one store, made of typed slices; only files in this folder import zustand (lint-enforced). */
export type StoreState = AppSlice & SettingsSlice & ProjectsSlice & ChatSlice & VaultSlice & TeamSlice;

const initialState: StateCreator<StoreState> = (...a) => ({
  ...createAppSlice(...a),
  ...createSettingsSlice(...a),
  ...createProjectsSlice(...a),
  ...createChatSlice(...a),
  ...createVaultSlice(...a),
  ...createTeamSlice(...a),
});

export const useStore = create<StoreState>()(initialState);

/** The store as the app starts it, choices kept in localStorage read again: each renderer test starts here. */
export function restartStore(): void {
  useStore.setState(initialState(useStore.setState, useStore.getState, useStore), true);
}

/** Select several fields at once without re-rendering on unrelated changes. */
export function useStoreShallow<T>(selector: (state: StoreState) => T): T {
  return useStore(useShallow(selector));
}

export type { View } from './app-slice';
export type { SearchFilters, VaultSort, VaultPanel } from './vault-slice';
