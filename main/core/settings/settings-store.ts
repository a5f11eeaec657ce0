import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Emitter } from '../../../common/async/event.js';
import { defaultSettings, settingsSchema, type Settings, type SettingsPatch } from '../../../common/domain/settings.js';
import { readJsonFile, writeJsonAtomic } from '../fs/index.js';
import type { Logger } from '../ports.js';

const settingsFile = (vaultRoot: string) => path.join(vaultRoot, '.strata', 'settings.json');

/**
 * The vault's settings file (`.strata/settings.json`). A file that does not parse is moved aside
 * (never deleted) and defaults are used, so a bad hand edit loses nothing and stops nothing.
 */
export class SettingsStore {
  private current: Settings = defaultSettings();
  /** The update being written; the next one starts after it (see update). */
  private writing: Promise<unknown> = Promise.resolve();
  private readonly didChange = new Emitter<Settings>();
  /** Fires with the new settings after each saved update, whoever asked for it (the only source of `settings:did-change`). */
  readonly onDidChange = this.didChange.event;

  constructor(
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  static forVault(vaultRoot: string, logger: Logger): SettingsStore {
    return new SettingsStore(settingsFile(vaultRoot), logger);
  }

  /**
   * The vault's settings for a command that only reads: a missing, unreadable or invalid file gives the
   * defaults and is left where it is (`load` moves a bad one aside).
   */
  static async peek(vaultRoot: string): Promise<Settings> {
    const raw = await readJsonFile(settingsFile(vaultRoot)).catch(() => undefined);
    const parsed = settingsSchema.safeParse(raw ?? {});
    return parsed.success ? parsed.data : defaultSettings();
  }

  async load(): Promise<Settings> {
    let raw: unknown;
    try {
      raw = await readJsonFile(this.file);
    } catch (error) {
      await this.setAside(`unreadable: ${(error as Error).message}`);
      return this.current;
    }
    if (raw === undefined) return this.current;
    const parsed = settingsSchema.safeParse(raw);
    if (parsed.success) {
      this.current = parsed.data;
    } else {
      await this.setAside(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    }
    return this.current;
  }

  get(): Settings {
    return this.current;
  }

  /**
   * Applies `patch` over the settings as they are when its turn comes: updates run one after another, so
   * two choices saved at once (three clicks in Settings) are both kept — each built on the other, never
   * on the settings from before either was written.
   */
  update(patch: SettingsPatch): Promise<Settings> {
    const run = this.writing.then(async () => {
      const next = settingsSchema.parse({ ...this.current, ...patch });
      await writeJsonAtomic(this.file, next, { mode: 0o600, dirMode: 0o700 });
      this.current = next;
      this.didChange.fire(next);
      return next;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async setAside(reason: string): Promise<void> {
    const aside = `${this.file}.invalid-${Date.now()}`;
    this.logger.warn('settings file is invalid; using defaults and keeping the file aside', { aside, reason });
    await fs.rename(this.file, aside).catch(() => undefined);
  }
}
