import type { StateCreator } from 'zustand';
import type { Settings } from '../../../common/domain/settings';
import type { StoreState } from './index';

export interface SettingsSlice {
  settings: Settings | null;
  setSettings(settings: Settings): void;
}

export const createSettingsSlice: StateCreator<StoreState, [], [], SettingsSlice> = (set) => ({
  settings: null,
  setSettings: (settings) => set({ settings }),
});
