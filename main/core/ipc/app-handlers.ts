import type { CredentialStatus } from '../../../common/domain/app.js';
import { AppFailure } from '../../../common/result.js';
import { API_KEY_ACCOUNT } from '../auth/index.js';
import { listDirs } from '../fs/index.js';
import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';

type AppChannel =
  | 'app:info'
  | 'settings:get'
  | 'settings:set'
  | 'project:open'
  | 'project:list'
  | 'project:forget'
  | 'vault:get-root'
  | 'vault:set-root'
  | 'fs:list-dirs'
  | 'credentials:status'
  | 'credentials:set-api-key'
  | 'credentials:clear-api-key';

async function credentialStatus(services: Services): Promise<CredentialStatus> {
  const stored = await services.credentials.get(API_KEY_ACCOUNT).catch(() => null);
  const apiKey = stored ? 'keychain' : services.config.env.ANTHROPIC_API_KEY ? 'environment' : 'missing';
  return { apiKey, driver: services.credentials.driver };
}

/** Handlers of the shell's own channels: app, settings, projects, vault root, folders, credentials. */
export function createAppHandlers(services: Services, shell: 'electron' | 'host'): Pick<Handlers, AppChannel> {
  const vault = () => services.vault();
  return {
    'app:info': () => ({
      name: 'Strata',
      version: services.version,
      platform: process.platform,
      shell,
      vaultRoot: vault().root,
      vaultState: vault().files.state,
    }),
    'settings:get': () => vault().settings.get(),
    'settings:set': ({ patch }) => vault().settings.update(patch),
    'project:open': ({ path }) => vault().projects.open(path),
    'project:list': () => vault().projects.list(),
    'project:forget': ({ path }) => vault().projects.forget(path),
    'vault:get-root': () => ({ root: vault().root, isDefault: vault().isDefault }),
    'vault:set-root': async ({ root }) => {
      try {
        const next = await services.switchVault(root);
        return { root: next.root, isDefault: next.isDefault };
      } catch (error) {
        throw new AppFailure('io_error', `Strata cannot use that folder as its vault: ${(error as Error).message}`);
      }
    },
    'fs:list-dirs': ({ path, zips }) => listDirs(services.config.homeDir, path, zips),
    'credentials:status': () => credentialStatus(services),
    'credentials:set-api-key': async ({ key }) => {
      await services.credentials.set(API_KEY_ACCOUNT, key);
      return credentialStatus(services);
    },
    'credentials:clear-api-key': async () => {
      await services.credentials.delete(API_KEY_ACCOUNT);
      return credentialStatus(services);
    },
  };
}
