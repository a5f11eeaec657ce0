import type { MemoryLinks, VaultFileMeta } from '../../../common/domain/vault.js';
import { kebabName, parseMemoryFile } from '../../../common/memory-file/index.js';
import { naturalCompare } from '../../../common/text/natural-sort.js';

/** `[[name]]`, `[[name|shown text]]` or `[[name#heading]]`: the part before `|` or `#` names the memory. */
const LINK = /\[\[([^[\]\n|#]+)(?:[|#][^[\]\n]*)?\]\]/g;

/** The `[[…]]` link names in a memory's body, in order, once each; fenced code and code spans are skipped. */
export function linkNames(body: string): string[] {
  const prose = body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const out: string[] = [];
  for (const m of prose.matchAll(LINK)) {
    const name = m[1]!.trim();
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

/** One memory as link resolution sees it. */
export interface LinkableMemory {
  meta: VaultFileMeta;
  text: string;
}

/**
 * Resolves `[[name]]` links among one project's memories (the newest Claude Code links memories by
 * their `name:` slug): a link matches the memory whose name is the same, else whose name is the same
 * as a kebab-case slug (`[[prefers-tabs]]` → "Prefers tabs"), else whose file name is (`user_role`).
 * An unresolved link is reported as such — Claude Code treats one as a memory worth writing later.
 */
export function memoryLinks(rel: string, memories: readonly LinkableMemory[]): MemoryLinks {
  const byExact = new Map<string, VaultFileMeta>();
  const bySlug = new Map<string, VaultFileMeta>();
  const byFile = new Map<string, VaultFileMeta>();
  const bodies = new Map<string, string>();
  const names = new Map<string, string | null>();
  for (const m of memories) {
    const parsed = parseMemoryFile(m.text);
    bodies.set(m.meta.path, parsed.body);
    names.set(m.meta.path, parsed.name);
    const fileName = m.meta.path.split('/').at(-1)!.replace(/\.md$/, '');
    if (parsed.name && !byExact.has(parsed.name)) byExact.set(parsed.name, m.meta);
    if (parsed.name && !bySlug.has(kebabName(parsed.name))) bySlug.set(kebabName(parsed.name), m.meta);
    if (!byFile.has(fileName)) byFile.set(fileName, m.meta);
  }
  const resolve = (name: string): VaultFileMeta | null => byExact.get(name) ?? bySlug.get(kebabName(name)) ?? byFile.get(name) ?? null;
  const links = linkNames(bodies.get(rel) ?? '').map((name) => {
    const target = resolve(name);
    return { name, path: target?.path ?? null, title: target?.title ?? null };
  });
  const backlinks: MemoryLinks['backlinks'] = [];
  for (const m of memories) {
    if (m.meta.path === rel) continue;
    if (linkNames(bodies.get(m.meta.path) ?? '').some((name) => resolve(name)?.path === rel)) {
      backlinks.push({ path: m.meta.path, title: m.meta.title });
    }
  }
  backlinks.sort((a, b) => naturalCompare(a.title, b.title) || naturalCompare(a.path, b.path));
  return { links, backlinks };
}
