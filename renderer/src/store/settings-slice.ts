import type { StateCreator } from 'zustand';
import type { Settings } from '../../../common/domain/settings';

export interface SettingsSlice {
  settings: Settings | null;
  setSettings(settings: Settings): void;
}

export const createSettingsSlice: StateCreator<SettingsSlice> = (set) => ({
  settings: null,
  setSettings: (settings) => set({ settings }),
});
