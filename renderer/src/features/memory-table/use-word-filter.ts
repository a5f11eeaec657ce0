import { useEffect, useState } from 'react';
import type { VaultFileMeta } from '../../../../common/domain/vault';
import { api } from '../../bridge';
import { useStore } from '../../store';

export interface WordFilter {
  /** The memories holding every word, or null when no words are typed (or none answered yet). */
  paths: ReadonlySet<string> | null;
  /** Words typed whose answer has not come yet (the last answer stays shown meanwhile). */
  pending: boolean;
}

/**
 * The table's word filter through the vault's search index (vault:match-memories): the same stems,
 * folded accents and word-being-typed completion as vault search, so a filter finds what a search finds.
 * Asked again when the file list changes; only the answer to the latest words is kept.
 */
export function useWordFilter(query: string, files: readonly VaultFileMeta[]): WordFilter {
  const words = query.trim();
  const [answer, setAnswer] = useState<{ query: string; paths: ReadonlySet<string> } | null>(null);
  useEffect(() => {
    if (!words) return;
    let current = true;
    void api.invoke['vault:match-memories']({ query: words.slice(0, 500) }).then((r) => {
      if (!current) return;
      if (r.ok) setAnswer({ query: words, paths: new Set(r.value.paths) });
      else useStore.getState().showError(r.error);
    });
    return () => {
      current = false;
    };
  }, [words, files]);
  if (!words) return { paths: null, pending: false };
  // Before the first answer every row stays: the table does not blink empty on the first letter typed.
  return { paths: answer?.paths ?? null, pending: answer?.query !== words };
}
