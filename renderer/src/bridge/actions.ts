import type { VaultState } from '../../../common/domain/app';
import type { SettingsPatch } from '../../../common/domain/settings';
import type { Result } from '../../../common/result';
import { useStore } from '../store';
import { api, onConnectionState } from './index';
import { loadSessions, refreshOpenSession } from './chat-actions';
import { loadFiles } from './vault-list';
import { loadTeamStatus } from './team-actions';

/** Unwraps a result: on failure the error goes to the banner and `null` comes back. */
function take<T>(result: Result<T>): T | null {
  if (result.ok) return result.value;
  useStore.getState().showError(result.error);
  return null;
}

/** The vault's state as its last event said, while a load of the app's info is under way. */
let vaultStateSeen: VaultState | null = null;

export async function loadInitialState(): Promise<void> {
  vaultStateSeen = null;
  const [info, settings, projects, credentials] = await Promise.all([
    api.invoke['app:info']({}),
    api.invoke['settings:get']({}),
    api.invoke['project:list']({}),
    api.invoke['credentials:status']({}),
  ]);
  const s = useStore.getState();
  const i = take(info);
  // The vault may have become ready between main's answer and the last of the four: its event wins.
  if (i) s.setInfo(vaultStateSeen ? { ...i, vaultState: vaultStateSeen } : i);
  const st = take(settings);
  if (st) s.setSettings(st);
  const p = take(projects);
  if (p) s.setProjects(p);
  const c = take(credentials);
  if (c) s.setCredentials(c);
  // The quick switcher lists vault files from anywhere in the app.
  void loadFiles();
}

/** Events from main reach slice actions here, outside React. */
export function wireEvents(): () => void {
  const s = useStore.getState();
  const offs = [
    api.on['settings:did-change']((settings) => s.setSettings(settings)),
    api.on['project:did-change-list']((projects) => s.setProjects(projects)),
    api.on['vault:did-change-root'](() => void loadInitialState()),
    api.on['vault:did-change-state'](({ state }) => {
      vaultStateSeen = state;
      const info = useStore.getState().info;
      if (info) s.setInfo({ ...info, vaultState: state });
      // Back from missing: what is there now is listed again.
      if (state === 'ready') void loadFiles();
    }),
    onConnectionState((state) => {
      const wasClosed = useStore.getState().connection === 'closed';
      s.setConnection(state);
      // Back after a lost connection: events sent meanwhile are gone, so the open conversation is read again.
      if (state === 'open' && wasClosed) void loadInitialState().then(refreshOpenSession);
    }),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * Makes `path` the open project: its conversations load, the chat shows. `sessionId` is the
 * conversation to return to (a reload); without it the project's newest one opens (chat-view.tsx).
 */
export async function selectProject(path: string, sessionId: string | null = null): Promise<void> {
  const s = useStore.getState();
  if (s.activeProject !== path) {
    s.setActiveProject(path);
    s.setActiveSession(sessionId);
  }
  s.setScreen('chat');
  await Promise.all([loadSessions(path), loadTeamStatus(path)]);
}

export async function openProject(path: string): Promise<boolean> {
  const project = take(await api.invoke['project:open']({ path }));
  if (!project) return false;
  await selectProject(project.path);
  return true;
}

export async function saveSettings(patch: SettingsPatch): Promise<boolean> {
  return take(await api.invoke['settings:set']({ patch })) !== null;
}

export async function setApiKey(key: string): Promise<boolean> {
  const status = take(await api.invoke['credentials:set-api-key']({ key }));
  if (status) useStore.getState().setCredentials(status);
  return status !== null;
}

export async function clearApiKey(): Promise<void> {
  const status = take(await api.invoke['credentials:clear-api-key']({}));
  if (status) useStore.getState().setCredentials(status);
}

export async function setVaultRoot(root: string | null): Promise<boolean> {
  return take(await api.invoke['vault:set-root']({ root })) !== null;
}

export const listDirs = (path?: string, zips = false) => api.invoke['fs:list-dirs']({ ...(path ? { path } : {}), ...(zips ? { zips } : {}) });
