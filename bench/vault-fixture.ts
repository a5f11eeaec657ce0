import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { defaultMemoryConfig, type MemoryConfig } from '../common/config.js';
import { silentLogger, systemClock } from '../main/core/ports.js';
import { Vault, type VaultOptions } from '../main/core/vault/vault.js';

/**
 * The generated vault the `vault-*` benches share (docs/memory.md#vault-upkeep: 10,000 notes): 50 projects × 200 memory
 * files with frontmatter, a MEMORY.md each, bodies of 60–180 words from a 3,000-word vocabulary.
 * Deterministic (seeded), generated once under `.bench-tmp/` and reused while its marker exists.
 */
export const NOTES = 10_000;
const PROJECTS = 50;
const VERSION = 1;

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pronounceable pseudo-words, so queries and `rg` see realistic token lengths. */
export function vocabulary(size = 3_000): string[] {
  const random = rng(7);
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qui', 'dor', 'fen', 'gal', 'hub', 'jin', 'wex', 'yul', 'bri', 'cot'];
  const words = new Set<string>();
  while (words.size < size) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  }
  return [...words];
}

export const benchDir = (name: string): string => path.resolve('.bench-tmp', name);

/** The 10,000-note vault's root (real path), generating it on first use. */
export async function generatedVault(): Promise<string> {
  const root = benchDir(`vault-10k-v${VERSION}`);
  const marker = path.join(root, '.generated');
  if (existsSync(marker)) return fs.realpath(root);
  await fs.rm(root, { recursive: true, force: true });
  const words = vocabulary();
  const random = rng(42);
  const pick = () => words[Math.floor(random() * random() * words.length)]!;
  const perProject = NOTES / PROJECTS;
  for (let p = 0; p < PROJECTS; p++) {
    const dir = path.join(root, 'projects', `-home-user-project-${p}`, 'memory');
    await fs.mkdir(dir, { recursive: true });
    const index: string[] = [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < perProject; i++) {
      const name = `${pick()} ${pick()}`;
      const description = Array.from({ length: 8 }, pick).join(' ');
      const body = Array.from({ length: 60 + Math.floor(random() * 120) }, (_, k) => (k % 12 === 11 ? `${pick()}.\n` : pick())).join(' ');
      const type = ['user', 'feedback', 'project', 'reference'][i % 4];
      index.push(`- [${name}](note-${i}.md) — ${description}`);
      writes.push(fs.writeFile(path.join(dir, `note-${i}.md`), `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\n${body}\n`));
    }
    writes.push(fs.writeFile(path.join(dir, 'MEMORY.md'), `${index.join('\n')}\n`));
    await Promise.all(writes);
  }
  await fs.writeFile(path.join(root, 'CLAUDE.md'), '# Instructions\n\nBe brief.\n');
  await fs.writeFile(marker, new Date().toISOString());
  return fs.realpath(root);
}

/** A vault over `root` as the app builds it, without logging. */
export function benchVault(root: string, options: Partial<VaultOptions> = {}): Vault {
  const config: MemoryConfig = structuredClone(defaultMemoryConfig);
  return new Vault({ root, clock: systemClock, logger: silentLogger, config: () => config, ...options });
}

/** Removes the search cache so the next open is a cold one. */
export async function dropCache(root: string): Promise<void> {
  await fs.rm(path.join(root, '.strata', 'cache'), { recursive: true, force: true });
}
