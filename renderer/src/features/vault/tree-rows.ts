import type { VaultFileMeta, VaultScope } from '../../../../common/domain/vault';
import { formatDateTime } from '../../ui/dates';

export type TreeSort = 'name' | 'updated' | 'size';

export const TREE_SCOPES: readonly { scope: VaultScope; label: string }[] = [
  { scope: 'instructions', label: 'Instructions' },
  { scope: 'session-notes', label: 'Session notes' },
  { scope: 'project-memory', label: 'Project memory' },
  { scope: 'team-memory', label: 'Team memory' },
];

/** One line of the flattened tree, as the virtual list draws it. */
export type TreeRow =
  | { kind: 'scope'; key: string; scope: VaultScope; label: string; count: number; collapsed: boolean }
  | { kind: 'project'; key: string; scope: VaultScope; slug: string; label: string; count: number; collapsed: boolean }
  | { kind: 'file'; key: string; scope: VaultScope; file: VaultFileMeta; title: string }
  | { kind: 'empty'; key: string; scope: VaultScope };

/** "note 2" before "note 10", case and accents ignored, as a person sorts. */
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
export const naturalCompare = (a: string, b: string): number => collator.compare(a, b);

export interface TreeInput {
  files: readonly VaultFileMeta[];
  sort: TreeSort;
  /** Keys of the collapsed groups (`scope` or `scope/slug`). */
  collapsed: ReadonlySet<string>;
  /** The name a project folder is shown under. */
  projectLabel: (slug: string | null) => string;
  /** The name a file is shown under (a session's title for its notes). */
  fileTitle: (file: VaultFileMeta) => string;
}

/**
 * The tree as rows: a heading per scope (with its count), a sub-heading per project, the files under
 * them in the chosen order; a collapsed group keeps its heading and drops its rows. Built once per
 * change of the list, so 10,000 files cost one pass, and only the rows on screen are drawn.
 */
export function buildTreeRows({ files, sort, collapsed, projectLabel, fileTitle }: TreeInput): TreeRow[] {
  const byScope = new Map<VaultScope, Map<string, { file: VaultFileMeta; title: string }[]>>();
  for (const file of files) {
    const projects = byScope.get(file.scope) ?? new Map<string, { file: VaultFileMeta; title: string }[]>();
    byScope.set(file.scope, projects);
    const key = file.projectSlug ?? '';
    const list = projects.get(key);
    const entry = { file, title: fileTitle(file) };
    if (list) list.push(entry);
    else projects.set(key, [entry]);
  }
  const order = sorter(sort);
  const rows: TreeRow[] = [];
  for (const { scope, label } of TREE_SCOPES) {
    const projects = byScope.get(scope) ?? new Map<string, { file: VaultFileMeta; title: string }[]>();
    const count = [...projects.values()].reduce((n, list) => n + list.length, 0);
    const scopeClosed = collapsed.has(scope);
    rows.push({ kind: 'scope', key: scope, scope, label, count, collapsed: scopeClosed });
    if (scopeClosed) continue;
    if (count === 0) {
      rows.push({ kind: 'empty', key: `${scope}:empty`, scope });
      continue;
    }
    const named = [...projects.entries()].map(([slug, list]) => ({ slug, label: projectLabel(slug || null), list }));
    // The user's own files ("You") first, then the projects by name.
    named.sort((a, b) => Number(a.slug !== '') - Number(b.slug !== '') || naturalCompare(a.label, b.label));
    for (const { slug, label: projectName, list } of named) {
      // The user's own CLAUDE.md needs a heading only beside the opened projects' ones.
      const headed = scope !== 'instructions' || slug !== '' || named.length > 1;
      const key = `${scope}/${slug}`;
      const closed = headed && collapsed.has(key);
      if (headed) rows.push({ kind: 'project', key, scope, slug, label: projectName, count: list.length, collapsed: closed });
      if (closed) continue;
      for (const entry of [...list].sort(order)) rows.push({ kind: 'file', key: entry.file.path, scope, file: entry.file, title: entry.title });
    }
  }
  return rows;
}

type Entry = { file: VaultFileMeta; title: string };

function sorter(sort: TreeSort): (a: Entry, b: Entry) => number {
  if (sort === 'updated') return (a, b) => b.file.mtime.localeCompare(a.file.mtime) || naturalCompare(a.title, b.title);
  if (sort === 'size') return (a, b) => b.file.size - a.file.size || naturalCompare(a.title, b.title);
  return (a, b) => naturalCompare(a.title, b.title) || naturalCompare(a.file.path, b.file.path);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A file's name on screen. Session notes go by their conversation's title when it is known; an id
 * is never shown: notes whose session is not listed read "Notes from <date>".
 */
export function humanTitle(file: VaultFileMeta, sessionTitles: ReadonlyMap<string, string>): string {
  if (file.scope !== 'session-notes' && file.scope !== 'transcript') return file.title;
  const id = /([0-9a-f-]{36})/i.exec(file.path)?.[1];
  const known = id ? sessionTitles.get(id) : undefined;
  if (known) return known;
  if (!UUID.test(file.title)) return file.title;
  const when = new Date(file.mtime);
  return `Notes from ${Number.isNaN(when.getTime()) ? 'an earlier session' : formatDateTime(when)}`;
}
