import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (docs/architecture.md#how-it-is-tested), or CHROMIUM_PATH. Free of vitest, so benches can use it too. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(chromiumPath);
// Tests that need it are skipped without it (describe.skipIf(!hasChromium)); say so, like the Electron test does.
if (!hasChromium) {
  process.stderr.write(`e2e: no Chromium at ${chromiumPath} (scripts/install-system-deps.sh installs it, or set CHROMIUM_PATH); the Chromium tests are skipped\n`);
}

/** The flags that keep Chromium headless and off the network (docs/architecture.md#how-it-is-tested). */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}
