import { promises as fs } from 'node:fs';
import path from 'node:path';
import { memoryText } from '../vault/vault-helpers.js';

/**
 * Writes `n` memories (`note_0.md` … about "the walrus project") into `memoryDir`, a second apart, so
 * that no two share a time: ties in the ranking go to the newer file, and the catalog and the disk
 * must agree on which that is.
 */
export async function writeWalrusMemories(memoryDir: string, n: number): Promise<void> {
  await fs.mkdir(memoryDir, { recursive: true });
  const start = Date.now() / 1000 - n;
  for (let i = 0; i < n; i++) {
    const file = path.join(memoryDir, `note_${i}.md`);
    await fs.writeFile(file, memoryText(`Note ${i}`, `Fact ${i} about the walrus project`, `Walrus detail ${i}.`));
    await fs.utimes(file, start + i, start + i);
  }
}
