import { promises as fs } from 'node:fs';
import path from 'node:path';
import { atomicTempPattern } from '../fs/index.js';

/**
 * Temp files our atomic writes leave behind when the process is killed between write and rename:
 * today's `.strata-<hex>.tmp`, the older `.<name>.<12 hex>.tmp`, and the base store's `.<16 hex>.<8 hex>.tmp`.
 */
const ourTemps = [atomicTempPattern, /^\..+\.[0-9a-f]{12}\.tmp$/, /^\.[0-9a-f]{16}\.[0-9a-f]{8}\.tmp$/];

/**
 * A temp file younger than this may belong to a write in progress (the vault editor saves into the
 * same folders); a write takes milliseconds, so anything older was left by a crash.
 */
export const staleTempMs = 10 * 60_000;

/** Removes our stale temp files under `dir` (recursively); returns how many. Never fails the caller. */
export async function removeStaleTempFiles(dir: string, now: number, maxAgeMs = staleTempMs): Promise<number> {
  let removed = 0;
  const walk = async (folder: string): Promise<void> => {
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && ourTemps.some((pattern) => pattern.test(entry.name))) {
        const stat = await fs.stat(full).catch(() => null);
        if (stat && now - stat.mtimeMs > maxAgeMs && (await fs.rm(full, { force: true }).then(() => true, () => false))) removed++;
      }
    }
  };
  await walk(dir);
  return removed;
}
