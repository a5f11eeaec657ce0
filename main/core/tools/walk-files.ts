import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Folders no search descends into (docs/architecture.md#the-agent). */
const SKIPPED = new Set(['.git', 'node_modules']);

/** Every file below `root` (real paths, no symlink following), skipping .git and node_modules. */
export async function walkFiles(root: string, signal?: AbortSignal): Promise<string[]> {
  const out: string[] = [];
  const stack = [root];
  while (stack.length > 0) {
    if (signal?.aborted) break;
    const dir = stack.pop()!;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name)) stack.push(full);
      } else if (e.isFile()) out.push(full);
    }
  }
  return out;
}

/** Files sorted by modification time, newest first (Claude Code's Glob and Grep order). */
export async function byMtime(files: string[]): Promise<string[]> {
  const stamped = await Promise.all(
    files.map(async (f) => ({ f, t: await fs.stat(f).then((s) => s.mtimeMs, () => 0) })),
  );
  return stamped.sort((a, b) => b.t - a.t || a.f.localeCompare(b.f)).map((s) => s.f);
}
