import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { benchDir, rng, vocabulary } from './vault-fixture.js';

/**
 * The vault of Health's fix benches (docs/memory.md#vault-upkeep): one project with 10,000 memories and
 * the user's own MEMORY.md (a heading and 190 lines) listing the first 190, so 9,810 are missing from it. Deterministic,
 * generated once under `.bench-tmp/` and reused while its marker exists.
 */
export const MEMORIES = 10_000;
export const LISTED = 190;
const SLUG = '-home-user-atlas';
const VERSION = 1;

export const indexPath = (root: string): string => path.join(root, 'projects', SLUG, 'memory', 'MEMORY.md');

/** The vault's root (real path) and the MEMORY.md it starts with. */
export async function healthFixVault(): Promise<{ root: string; index: string }> {
  const root = benchDir(`health-fix-10k-v${VERSION}`);
  const dir = path.join(root, 'projects', SLUG, 'memory');
  const marker = path.join(root, '.generated');
  if (!existsSync(marker)) {
    await fs.rm(root, { recursive: true, force: true });
    await fs.mkdir(dir, { recursive: true });
    const words = vocabulary();
    const random = rng(30);
    const pick = () => words[Math.floor(random() * random() * words.length)]!;
    const lines = ['# What I keep', ''];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < MEMORIES; i++) {
      const name = `${pick()} ${pick()}`;
      const description = Array.from({ length: 6 }, pick).join(' ');
      if (i < LISTED) lines.push(`- [${name}](memory-${i}.md) — ${description}`);
      const body = Array.from({ length: 40 + Math.floor(random() * 80) }, pick).join(' ');
      writes.push(fs.writeFile(path.join(dir, `memory-${i}.md`), `---\nname: ${name}\ndescription: ${description}\ntype: project\n---\n\n${body}\n`));
    }
    await Promise.all(writes);
    await fs.writeFile(`${root}.index.md`, `${lines.join('\n')}\n`);
    await fs.writeFile(marker, new Date().toISOString());
  }
  // Each run starts from the user's index, whatever a run stopped midway left.
  const index = await fs.readFile(`${root}.index.md`, 'utf8');
  await fs.writeFile(path.join(dir, 'MEMORY.md'), index);
  return { root: await fs.realpath(root), index };
}
