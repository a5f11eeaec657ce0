import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import { resolveInScope } from './path-scope.js';
import { statOrNull } from './file-kind.js';
import type { ToolContext } from './tool-types.js';

const MAX_DEPTH = 2;

/** One entry of the listing: its name under the viewed folder, where it really is, and whether it is a folder. */
interface Entry {
  rel: string;
  abs: string;
  dir: boolean;
}

export function formatSize(bytes: number): string {
  if (bytes === 0) return '0B';
  const i = Math.min(3, Math.floor(Math.log(bytes) / Math.log(1024)));
  const size = bytes / 1024 ** i;
  return (size % 1 === 0 ? String(size) : size.toFixed(1)) + ['B', 'K', 'M', 'G'][i];
}

/**
 * A child as the listing takes it: a plain file or folder as it is; a link only when it stays inside
 * the memory folders (followed to where it leads), never one that leads out; anything else left out.
 */
async function entryOf(dirent: Dirent, abs: string, rel: string, ctx: ToolContext): Promise<Entry | null> {
  if (dirent.isFile() || dirent.isDirectory()) return { rel, abs, dir: dirent.isDirectory() };
  if (!dirent.isSymbolicLink()) return null;
  const where = await resolveInScope(abs, ctx.scope);
  if (!where.ok || where.kind !== 'memory') return null;
  const st = await statOrNull(where.path);
  return st?.isFile() || st?.isDirectory() ? { rel, abs: where.path, dir: st.isDirectory() } : null;
}

/** Every entry up to two levels deep, hidden ones and node_modules left out, in name order (no stat: names only). */
async function entriesUnder(root: string, ctx: ToolContext): Promise<Entry[]> {
  const out: Entry[] = [];
  const walk = async (dir: string, rel: string, depth: number) => {
    const dirents = (await fs.readdir(dir, { withFileTypes: true }).catch(() => [])).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of dirents) {
      if (dirent.name.startsWith('.') || dirent.name === 'node_modules') continue;
      const childRel = rel ? `${rel}/${dirent.name}` : dirent.name;
      const entry = await entryOf(dirent, path.join(dir, dirent.name), childRel, ctx);
      if (!entry) continue;
      out.push(entry);
      if (entry.dir && depth < MAX_DEPTH) await walk(entry.abs, childRel, depth + 1);
    }
  };
  await walk(root, '', 1);
  return out;
}

/**
 * The memory tool's `view` of a folder: the reference implementation's listing (sizes, two levels,
 * no hidden items), but at most `globMaxResults` entries an answer — a folder of thousands of memories
 * would otherwise fill the context with one call. `view_range` pages through the entries as it pages
 * through a file's lines (1-based, inclusive, -1 for the end); the answer says what it left out and
 * how to see it.
 */
export async function viewMemoryFolder(abs: string, virtual: string, ctx: ToolContext, range?: readonly number[]): Promise<string> {
  const entries = await entriesUnder(abs, ctx);
  const page = ctx.limits.globMaxResults;
  const [from = 1, to = -1] = range ?? [];
  const start = Math.min(Math.max(1, from) - 1, entries.length);
  const end = Math.min(to === -1 ? entries.length : Math.max(to, start), entries.length, start + page);
  const rows = [`${formatSize((await fs.stat(abs)).size)}\t${virtual}`];
  for (const entry of entries.slice(start, end)) {
    const st = await statOrNull(entry.abs);
    rows.push(`${formatSize(st?.size ?? 0)}\t${virtual}/${entry.rel}${entry.dir ? '/' : ''}`);
  }
  const header = `Here're the files and directories up to 2 levels deep in ${virtual}, excluding hidden items and node_modules:`;
  if (start === 0 && end === entries.length) return `${header}\n${rows.join('\n')}`;
  const shown = end > start ? `entries ${start + 1}–${end}` : 'no entries';
  const next = end < entries.length ? ` Pass view_range [${end + 1}, ${Math.min(end + page, entries.length)}] for the next ones, or view a subfolder.` : '';
  return `${header}\n${rows.join('\n')}\n(Showing ${shown} of ${entries.length}; at most ${page} at a time.${next})`;
}
