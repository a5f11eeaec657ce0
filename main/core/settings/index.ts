/** The settings engine's public face: what code outside main/core/settings imports. */
export { SettingsStore } from './settings-store.js';
