import type { StateCreator } from 'zustand';
import type { AppInfo, CredentialStatus } from '../../../common/domain/app';
import type { AppError } from '../../../common/result';

export type View = 'chat' | 'vault' | 'settings';
export type Connection = 'connecting' | 'open' | 'closed';

export interface AppSlice {
  info: AppInfo | null;
  view: View;
  connection: Connection;
  credentials: CredentialStatus | null;
  /** The newest error worth a banner; cleared by the user or by the next success. */
  error: AppError | null;
  folderChooserOpen: boolean;
  /** A transient message with an optional action (Undo), shown at the bottom. */
  toast: Toast | null;
  setInfo(info: AppInfo): void;
  setScreen(screen: View): void;
  setConnection(state: Connection): void;
  setCredentials(status: CredentialStatus): void;
  showError(error: AppError | null): void;
  setFolderChooserOpen(open: boolean): void;
  showToast(toast: Toast | null): void;
}

export interface Toast {
  text: string;
  actionLabel?: string;
  action?: () => void;
}

export const createAppSlice: StateCreator<AppSlice> = (set) => ({
  info: null,
  view: 'chat',
  connection: 'connecting',
  credentials: null,
  error: null,
  folderChooserOpen: false,
  toast: null,
  showToast: (toast) => set({ toast }),
  setInfo: (info) => set({ info }),
  setScreen: (view) => set({ view }),
  setConnection: (connection) => set({ connection }),
  setCredentials: (credentials) => set({ credentials }),
  showError: (error) => set({ error }),
  setFolderChooserOpen: (folderChooserOpen) => set({ folderChooserOpen }),
});
