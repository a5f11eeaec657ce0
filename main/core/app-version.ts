import { readFileSync } from 'node:fs';

let cached: string | null = null;

/**
 * The version in Strata's own package.json, found by walking up from this module: the source tree, the
 * Electron bundle and a CLI chunk (`dist/cli/chunks/`) sit at different depths below it, so a fixed
 * relative path finds nothing from one of them. Other package.json files on the way are skipped by name.
 */
export function appVersion(): string {
  if (cached !== null) return cached;
  for (let up = '../'; up.length <= 6 * 3; up += '../') {
    let text: string;
    try {
      text = readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8');
    } catch {
      continue;
    }
    const { name, version } = JSON.parse(text) as { name?: string; version?: string };
    if (name === 'strata' && version) return (cached = version);
  }
  return (cached = 'unknown');
}
