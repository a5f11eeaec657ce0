import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Every file under `dir` (relative path → bytes as base64), so a test can say "nothing here changed". */
export async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, abs)] = await fs.readFile(abs, 'base64');
  }
  return out;
}
