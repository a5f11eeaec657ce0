import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAppDataDir, VaultRootPointer } from '../../../../main/core/vault-root.js';
import { createServices } from '../../../../main/core/services.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('vault root resolution', () => {
  it('defaults to the app data folder and follows a user choice across restarts', async () => {
    const appData = await tempDir();
    const pointer = new VaultRootPointer(appData);
    expect(await pointer.read()).toEqual({ root: appData, isDefault: true });
    const chosen = path.join(await tempDir(), 'my-vault');
    await pointer.write(chosen);
    expect(await new VaultRootPointer(appData).read()).toEqual({ root: chosen, isDefault: false });
    expect((await fs.stat(chosen)).isDirectory()).toBe(true);
    await pointer.write(null);
    expect(await pointer.read()).toEqual({ root: appData, isDefault: true });
  });

  it('names the platform data folder, and STRATA_APP_DATA overrides it', () => {
    expect(defaultAppDataDir({ HOME: '/h', XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/Strata');
    expect(defaultAppDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32')).toContain('Strata');
    expect(defaultAppDataDir({ STRATA_APP_DATA: '/x/y' }, 'linux')).toBe('/x/y');
  });

  it('rebuilds the vault-bound engines when the vault moves, and keeps settings per vault', async () => {
    const appData = await tempDir();
    const services = await createServices({ appDataDir: appData, shell: 'cli' });
    await services.vault().settings.update({ theme: 'dark' });
    const other = await tempDir();
    const events: string[] = [];
    services.events.subscribe((channel) => events.push(channel));
    await services.switchVault(other);
    expect(services.vault().root).toBe(other);
    expect(services.vault().settings.get().theme).toBe('system');
    expect(events).toContain('vault:did-change-root');
    await services.switchVault(null);
    expect(services.vault().settings.get().theme).toBe('dark');
  });

  it('refuses to use a file as the vault', async () => {
    const appData = await tempDir();
    const file = path.join(appData, 'file');
    await fs.writeFile(file, 'x');
    await expect(new VaultRootPointer(appData).write(file)).rejects.toThrow(/not a folder/);
  });
});
