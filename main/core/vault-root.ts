import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readJsonFile, writeJsonAtomic } from './fs/index.js';

/** The app's own data folder, per platform, as Electron's `userData` would name it. */
export function defaultAppDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.STRATA_APP_DATA) return path.resolve(env.STRATA_APP_DATA);
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Strata');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Strata');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Strata');
}

// Checked by hand, not with zod: this module is on the start path of every `strata` command that finds the
// vault, and loading zod costs more than the whole rest of `strata scan-secrets` (bench/cli-start.bench.ts).
function pointedRoot(raw: unknown): string | undefined {
  const root = typeof raw === 'object' && raw !== null ? (raw as { root?: unknown }).root : undefined;
  return typeof root === 'string' && root.length > 0 ? root : undefined;
}

/**
 * Where the vault lives. The choice is kept outside the vault (in the app data folder), since the
 * vault's own settings cannot say where the vault is. Default: the app data folder itself; a user may
 * point it at `~/.claude` to share memory with Claude Code.
 */
export class VaultRootPointer {
  private readonly file: string;

  constructor(private readonly appDataDir: string) {
    this.file = path.join(appDataDir, 'vault-root.json');
  }

  async read(): Promise<{ root: string; isDefault: boolean }> {
    const raw = await readJsonFile(this.file).catch(() => undefined);
    const root = pointedRoot(raw);
    if (root !== undefined) return { root, isDefault: false };
    return { root: this.appDataDir, isDefault: true };
  }

  /** Points the vault at `root` (created if missing), or back to the default with `null`. */
  async write(root: string | null): Promise<{ root: string; isDefault: boolean }> {
    if (root === null) {
      await fs.rm(this.file, { force: true });
      return { root: this.appDataDir, isDefault: true };
    }
    const resolved = path.resolve(root);
    const existing = await fs.stat(resolved).catch(() => null);
    if (existing && !existing.isDirectory()) throw new Error(`${resolved} is not a folder`);
    if (!existing) await fs.mkdir(resolved, { recursive: true });
    await writeJsonAtomic(this.file, { root: resolved });
    return { root: resolved, isDefault: false };
  }
}
