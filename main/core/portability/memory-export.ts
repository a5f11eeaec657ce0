import type { ExportedMemory } from '../../../common/domain/portability.js';
import { parseMemoryFile } from '../../../common/memory-file/index.js';
import type { Vault } from '../vault/index.js';
import { writeZip } from './zip.js';

/**
 * Export of memory (docs/memory-upkeep.md "Taking memory elsewhere"): a project's memory folders (auto
 * and team) or every project's, as a zip of the files exactly as they are (their MEMORY.md indexes
 * included), or as one markdown document written to be pasted into another assistant.
 */

/** The memory files of one project (by its memory slug) or of the whole vault (null), sorted by path. */
export async function collectMemories(vault: Vault, projectSlug: string | null): Promise<ExportedMemory[]> {
  const metas = vault
    .list()
    .filter((m) => (m.scope === 'project-memory' || m.scope === 'team-memory') && (projectSlug === null || m.projectSlug === projectSlug))
    .filter((m) => !m.binary && !m.tooLarge && m.error === null);
  const out: ExportedMemory[] = [];
  for (const m of metas) {
    const file = await vault.read(m.path).catch(() => null);
    if (file) out.push({ path: m.path, text: file.text, project: m.projectName ?? nameFromSlug(m.projectSlug) });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** A memory file of no project the vault names (it always names those of `projects/<slug>/`). */
const nameFromSlug = (slug: string | null) => slug?.replace(/^-+/, '') || 'project';

/**
 * Each project's memory folder under the project's own name (`penny/memory/…`, `penny/memory/team/…`),
 * not its slug; two projects of the same name get `penny`, `penny 2`. The import reads it back.
 */
export function memoriesZip(memories: readonly ExportedMemory[], now: number): Buffer {
  const folders = new Map<string, string>();
  const entries = memories.map((m) => {
    const [, slug = '', rest = m.path] = /^projects\/([^/]+)\/(.*)$/.exec(m.path) ?? [];
    let folder = folders.get(slug);
    if (folder === undefined) {
      const base = m.project.replace(/[\\/:*?"<>|\p{Cc}]+/gu, '-').replace(/^[.\s]+|[.\s]+$/g, '') || 'project';
      const used = new Set(folders.values());
      folder = base;
      for (let n = 2; used.has(folder); n++) folder = `${base} ${n}`;
      folders.set(slug, folder);
    }
    return { name: `${folder}/${rest}`, data: Buffer.from(m.text, 'utf8') };
  });
  return writeZip(entries, new Date(now));
}

const typeWords: Record<string, string> = {
  user: 'About me',
  feedback: 'How I like you to work',
  project: 'What I am working on',
  reference: 'Where things are',
};

/** One markdown document: an opening request, then each project's memories grouped by kind. */
export function memoriesMarkdown(memories: readonly ExportedMemory[], now: number): string {
  const byProject = new Map<string, ExportedMemory[]>();
  for (const m of memories) {
    if (m.path.endsWith('/MEMORY.md')) continue;
    const project = /^projects\/([^/]+)\//.exec(m.path)?.[1] ?? 'other';
    byProject.set(project, [...(byProject.get(project) ?? []), m]);
  }
  const lines = [
    `# What I want you to remember about me`,
    '',
    // Only imported memories carry the day they were written down, so the document promises no date.
    `Exported from Strata on ${new Date(now).toISOString().slice(0, 10)}. Please remember the following about me and how I work.`,
  ];
  for (const [slug, files] of byProject) {
    if (byProject.size > 1 || slug !== 'other') lines.push('', `## Project: ${files[0]!.project}`);
    const groups = new Map<string, string[]>();
    for (const f of files) {
      const parsed = parseMemoryFile(f.text);
      const heading = typeWords[parsed.type ?? ''] ?? 'Other notes';
      const title = parsed.name ?? f.path.split('/').pop()!.replace(/\.md$/, '');
      const body = parsed.body.trim().replace(/^#{1,6}\s+/gm, '').replace(/\n{3,}/g, '\n\n');
      const team = f.path.includes('/memory/team/') ? ' (shared with my team)' : '';
      groups.set(heading, [...(groups.get(heading) ?? []), `- **${title}**${team}: ${body.replace(/\n+/g, '\n  ')}`]);
    }
    for (const heading of Object.values(typeWords).concat('Other notes')) {
      const items = groups.get(heading);
      if (items) lines.push('', `### ${heading}`, '', ...items);
    }
  }
  return `${lines.join('\n')}\n`;
}
