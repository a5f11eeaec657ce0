import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Writes memory files into a fresh temp folder with their modified times set, as recall reads them. */
export async function writeMemoryFolder(prefix: string, memories: readonly { relPath: string; text: string; mtimeMs: number }[]): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  for (const m of memories) {
    const file = path.join(dir, m.relPath);
    await fs.writeFile(file, m.text);
    await fs.utimes(file, m.mtimeMs / 1000, m.mtimeMs / 1000);
  }
  return dir;
}
