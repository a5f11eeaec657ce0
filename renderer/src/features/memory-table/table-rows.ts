import type { MemoryUsage } from '../../../../common/domain/memory-use';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { freshnessOf } from '../../../../common/memory-file/freshness';
import { naturalCompare } from '../vault/tree-rows';

/** Where a memory came from (docs/memory.md#provenance-and-use): a conversation, an import, or unknown. */
export type Origin = { kind: 'conversation'; sessionId: string; title: string | null } | { kind: 'import'; from: string } | { kind: 'unknown' };

export interface Row {
  /** Its place in the rows as built: what the sort keys are indexed by. */
  at: number;
  meta: VaultFileMeta;
  name: string;
  type: string;
  description: string;
  scope: 'project' | 'team';
  project: string;
  projectLabel: string;
  modified: string;
  tokens: number;
  /** ISO time, '' when never used (sorts first ascending: the never-used ones are what to look at). */
  lastUsed: string;
  timesUsed: number;
  validUntil: string;
  expired: boolean;
  origin: Origin;
}

export type SortColumn = 'name' | 'type' | 'scope' | 'project' | 'lastUsed' | 'timesUsed' | 'validUntil' | 'modified' | 'tokens' | 'origin';

export const originText = (o: Origin): string =>
  o.kind === 'conversation' ? (o.title ?? 'A deleted conversation') : o.kind === 'import' ? `Imported from ${o.from}` : '';

/** About four characters a token, as the health panel counts. */
const tokensOf = (size: number) => Math.ceil(size / 4);

export const isMemoryRow = (f: VaultFileMeta): boolean => (f.scope === 'project-memory' || f.scope === 'team-memory') && !f.path.endsWith('/MEMORY.md');

export interface RowSources {
  files: readonly VaultFileMeta[];
  usage: MemoryUsage['files'];
  /** A conversation's title by its transcript's path, or null when the vault no longer holds it. */
  titleOf: (projectSlug: string, sessionId: string) => string | null;
  projectLabel: (slug: string) => string;
  today: string;
}

/** Every memory of the file list as a row of the table. */
export function buildRows({ files, usage, titleOf, projectLabel, today }: RowSources): Row[] {
  const rows: Row[] = [];
  // One label a project, not one a row: a label looks through the open projects' folders.
  const labels = new Map<string, string>();
  const labelOf = (slug: string) => labels.get(slug) ?? labels.set(slug, projectLabel(slug)).get(slug)!;
  for (const meta of files) {
    if (!isMemoryRow(meta)) continue;
    const use = usage[meta.path];
    const extras = meta.memory ?? {};
    const project = meta.projectSlug ?? '';
    const origin: Origin = extras.originSessionId
      ? { kind: 'conversation', sessionId: extras.originSessionId, title: titleOf(project, extras.originSessionId) }
      : extras.importedFrom
        ? { kind: 'import', from: extras.importedFrom }
        : { kind: 'unknown' };
    rows.push({
      at: rows.length,
      meta,
      name: meta.title,
      type: meta.type ?? '—',
      description: meta.description ?? '',
      scope: meta.scope === 'team-memory' ? 'team' : 'project',
      project,
      projectLabel: labelOf(project),
      modified: meta.mtime,
      tokens: tokensOf(meta.size),
      lastUsed: use?.lastUsed ?? '',
      timesUsed: use?.count ?? 0,
      validUntil: extras.validUntil ?? '',
      expired: freshnessOf({ validUntil: extras.validUntil ?? null, reviewOn: null }, today) === 'expired',
      origin,
    });
  }
  return rows;
}

/** Each row's rank among the others by `text`, in the vault tree's natural order (equal texts share a rank): words compare once, here. */
function ranksOf(rows: readonly Row[], text: (r: Row) => string): Float64Array {
  const texts = rows.map(text);
  const order = Array.from(rows, (_, i) => i).sort((a, b) => naturalCompare(texts[a]!, texts[b]!));
  const ranks = new Float64Array(rows.length);
  let rank = 0;
  order.forEach((i, k) => {
    if (k > 0 && texts[i] !== texts[order[k - 1]!] && naturalCompare(texts[i]!, texts[order[k - 1]!]!) !== 0) rank++;
    ranks[i] = rank;
  });
  return ranks;
}

/** A date as a number to sort by; none sorts first. */
const timeOf = (iso: string) => (iso ? Date.parse(iso) : -Infinity);

/**
 * Sort keys of the rows, a number per row and column, computed once per column for a set of rows: a
 * sort then compares two numbers, never words, and allocates nothing per comparison (docs/memory-upkeep.md#the-memory-table).
 */
export class SortKeys {
  private readonly keys = new Map<SortColumn, Float64Array>();

  constructor(private readonly rows: readonly Row[]) {}

  of(column: SortColumn): Float64Array {
    let keys = this.keys.get(column);
    if (!keys) {
      keys = this.compute(column);
      this.keys.set(column, keys);
    }
    return keys;
  }

  private compute(column: SortColumn): Float64Array {
    const rows = this.rows;
    switch (column) {
      case 'timesUsed':
        return Float64Array.from(rows, (r) => r.timesUsed);
      case 'tokens':
        return Float64Array.from(rows, (r) => r.tokens);
      case 'lastUsed':
      case 'validUntil':
      case 'modified':
        return Float64Array.from(rows, (r) => timeOf(r[column]));
      case 'project':
        return ranksOf(rows, (r) => r.projectLabel);
      case 'origin':
        return ranksOf(rows, (r) => originText(r.origin));
      default:
        return ranksOf(rows, (r) => r[column]);
    }
  }

  /** The rows in the column's order (ties in name order, whatever the earlier sort was). */
  sorted(column: SortColumn, desc: boolean): Row[] {
    const key = this.of(column);
    const name = this.of('name');
    const dir = desc ? -1 : 1;
    const order = Uint32Array.from(this.rows, (r) => r.at);
    order.sort((a, b) => (key[a]! - key[b]!) * dir || name[a]! - name[b]!);
    return Array.from(order, (i) => this.rows[i]!);
  }
}
