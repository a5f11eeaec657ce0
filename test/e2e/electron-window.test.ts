import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { _electron as electron } from 'playwright-core';
import { tempDir } from '../support/temp-dir.js';

/** The Electron binary is downloaded lazily; where it could not be, this test says so and is skipped. */
function electronBinary(): string | null {
  const dir = path.resolve('node_modules/electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = path.join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();
if (!binary) console.warn('e2e: no Electron binary on this machine (it could not be downloaded); the Electron-window test is skipped');

describe.skipIf(!binary)('the Electron window', () => {
  it('opens the app sandboxed, with window.strata and no Node in the renderer', async () => {
    const app = await electron.launch({
      executablePath: binary!,
      args: [path.resolve('.')],
      env: { ...process.env, STRATA_APP_DATA: await tempDir() },
    });
    const page = await app.firstWindow();
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor();
    expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (window as unknown as { strata?: unknown }).strata)).toBe('object');
    await app.close();
  });
});
