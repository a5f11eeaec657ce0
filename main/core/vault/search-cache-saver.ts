import { saveSearchCache } from '../search/index.js';
import type { VaultContext } from './vault-context.js';

/**
 * How long after the last change the cache is saved. Saving serializes the whole index in one turn
 * (the documents and the term index's arrays: a third to half a second of the main process at 10,000
 * notes), and a stale cache costs little (the files changed since are read again on open), so once a
 * minute at most.
 */
const SAVE_DELAY_MS = 60_000;

/** Saves the search cache under `.strata/cache/` a while after the last change, and once at close. */
export class SearchCacheSaver {
  private timer: NodeJS.Timeout | null = null;
  private dirty = false;

  constructor(private readonly vault: Pick<VaultContext, 'options' | 'root' | 'index'>) {}

  private get enabled(): boolean {
    return this.vault.options.useCache ?? true;
  }

  schedule(): void {
    if (!this.enabled) return;
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, this.vault.options.cacheSaveDelayMs ?? SAVE_DELAY_MS);
    this.timer.unref();
  }

  /** Stops the timer; saves what is pending unless the root is gone. */
  async close(rootPresent: boolean): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dirty && this.enabled && rootPresent) await this.save();
  }

  private async save(): Promise<void> {
    this.dirty = false;
    try {
      await saveSearchCache(this.vault.root, this.vault.index);
    } catch (error) {
      this.vault.options.logger.warn('vault: the search cache could not be saved', { error: String(error) });
    }
  }
}
