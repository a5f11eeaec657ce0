import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServices } from '../../../../main/core/services.js';
import { IncognitoSessions, sweepIncognitoLeftovers } from '../../../../main/core/transcripts/index.js';
import { compileChild } from '../../../support/compiled-child.js';
import { tempDir } from '../../../support/temp-dir.js';
import { testLogger } from '../../../support/test-logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
let child: Awaited<ReturnType<typeof compileChild>>;
beforeAll(async () => {
  child = await compileChild(path.join(here, 'incognito-crash-child.ts'));
});
afterAll(() => child?.remove());

/** Runs a Strata that writes an incognito transcript and is killed; resolves with the file it left and its pid. */
function crashedStrata(vaultRoot: string, temp: string): Promise<{ file: string; pid: number }> {
  return new Promise((resolve, reject) => {
    const proc = execFile(process.execPath, [child.file, vaultRoot, temp], (error, stdout) => {
      if (error?.signal !== 'SIGKILL') return reject(new Error(`the child did not crash: ${String(error)} ${stdout}`));
      resolve({ file: stdout.trim(), pid: proc.pid! });
    });
  });
}

const exists = (p: string) => fs.lstat(p).then(() => true, () => false);

/** A folder shaped like an incognito one, owned by `pid`, with `extra` files at its top. */
async function lookalike(temp: string, name: string, pid: number | null, extra: string[] = []) {
  const dir = path.join(temp, name);
  await fs.mkdir(path.join(dir, '-home-u-proj'), { recursive: true });
  if (pid !== null) await fs.writeFile(path.join(dir, 'strata-owner.json'), JSON.stringify({ pid }));
  for (const file of extra) await fs.writeFile(path.join(dir, file), 'not Strata’s');
  return dir;
}

describe('incognito leftovers of a crash (docs/memory.md#pause-and-incognito)', () => {
  it('are removed when Strata next starts; nothing else in the temp folder is touched', async () => {
    const temp = await tempDir();
    const crashed = await crashedStrata(await tempDir(), temp);
    expect(await fs.readFile(crashed.file, 'utf8')).toContain('A private answer');
    const leftover = path.dirname(path.dirname(crashed.file));

    // What must stay: a running Strata's folder (this process's), a similar folder with no owner file,
    // one whose dead owner left something Strata never writes, a link to a crash leftover elsewhere,
    // a plain file with the name, and an unrelated folder.
    const running = new IncognitoSessions(temp);
    const runningDir = path.dirname(running.dirFor('-home-u-proj'));
    const noOwner = await lookalike(temp, 'strata-incognito-noownr', null);
    const foreign = await lookalike(temp, 'strata-incognito-foreig', crashed.pid, ['holiday-photos.zip']);
    const elsewhere = await lookalike(await tempDir(), 'strata-incognito-target', crashed.pid);
    await fs.symlink(elsewhere, path.join(temp, 'strata-incognito-linkme'));
    await fs.writeFile(path.join(temp, 'strata-incognito-afile1'), 'a file');
    await fs.mkdir(path.join(temp, 'other-app'));

    const log = testLogger();
    const services = await createServices({ appDataDir: await tempDir(), vaultRoot: await tempDir(), shell: 'host', logger: log.logger, tempDir: temp });
    try {
      await vi.waitFor(() => expect(log.entries.map((e) => e.message)).toContain('removed incognito conversations a crash left behind'), { timeout: 10_000 });
    } finally {
      await services.close();
    }
    expect(await exists(leftover)).toBe(false);
    for (const kept of [runningDir, noOwner, foreign, elsewhere, path.join(temp, 'strata-incognito-linkme'), path.join(temp, 'strata-incognito-afile1'), path.join(temp, 'other-app')]) {
      expect(await exists(kept), kept).toBe(true);
    }
    running.discardAll();
    expect(await exists(runningDir)).toBe(false);
    log.assertNoErrors();
  });

  it('keeps the folder of a Strata that is still running, and sweeps it once that one is gone', async () => {
    const temp = await tempDir();
    const dir = await lookalike(temp, 'strata-incognito-abc123', 424242);
    expect(await sweepIncognitoLeftovers(temp, () => true)).toEqual([]);
    expect(await exists(dir)).toBe(true);
    expect(await sweepIncognitoLeftovers(temp, (pid) => pid !== 424242)).toEqual([dir]);
    expect(await exists(dir)).toBe(false);
  });
});
