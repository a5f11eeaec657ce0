import type { TidyLabels } from './fixture.js';

/** One proposed change, by file name (relative to the memory folder). */
export interface ProposedChange {
  file: string;
  action: 'created' | 'updated' | 'deleted';
  /** The proposed text (null for a deletion). */
  after: string | null;
}

export interface TidyScore {
  duplicates: { planted: number; fixed: number };
  dates: { planted: number; fixed: number };
  contradictions: { planted: number; fixed: number };
  /** Changes to files no planted problem involves. */
  unplanted: number;
  /** Fixed ÷ planted over the three kinds. */
  found: number;
}

/**
 * A duplicate counts as fixed when exactly one of the pair is deleted; a date when the file's new text
 * has the absolute date and no longer the phrase; a contradiction when the older file is deleted and
 * the newer one kept.
 */
export function scoreTidy(labels: TidyLabels, changes: readonly ProposedChange[]): TidyScore {
  const byFile = new Map(changes.map((c) => [c.file, c]));
  const deleted = (f: string) => byFile.get(f)?.action === 'deleted';
  const involved = new Set<string>();
  const dup = labels.duplicates.filter(([a, b]) => {
    involved.add(a).add(b);
    return deleted(a) !== deleted(b);
  }).length;
  const dates = labels.dates.filter((d) => {
    involved.add(d.file);
    const after = byFile.get(d.file)?.after;
    return after != null && after.includes(d.expected) && !after.includes(d.phrase);
  }).length;
  const contra = labels.contradictions.filter((c) => {
    involved.add(c.older).add(c.newer);
    return deleted(c.older) && !deleted(c.newer);
  }).length;
  const planted = labels.duplicates.length + labels.dates.length + labels.contradictions.length;
  return {
    duplicates: { planted: labels.duplicates.length, fixed: dup },
    dates: { planted: labels.dates.length, fixed: dates },
    contradictions: { planted: labels.contradictions.length, fixed: contra },
    unplanted: changes.filter((c) => !involved.has(c.file) && c.file !== 'MEMORY.md').length,
    found: planted === 0 ? 0 : (dup + dates + contra) / planted,
  };
}
