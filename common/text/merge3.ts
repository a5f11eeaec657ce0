import { diff3Merge } from 'node-diff3';

/**
 * Line-based three-way merge of two edits of one text against the version both started from.
 * Used wherever two writers meet: the vault editor against a change on disk, the session-notes panel
 * against the background updater, and team sync against a teammate's push. Lines keep their own line
 * endings, so a merge of CRLF texts stays CRLF and `clean` results join back byte for byte.
 */
export type MergeChunk =
  | { kind: 'same'; text: string }
  | { kind: 'conflict'; base: string; mine: string; theirs: string };

export type Merge3Result = { clean: true; text: string } | { clean: false; chunks: MergeChunk[] };

export function merge3(base: string, mine: string, theirs: string): Merge3Result {
  if (mine === theirs || theirs === base) return { clean: true, text: mine };
  if (mine === base) return { clean: true, text: theirs };
  const regions = diff3Merge(splitLines(mine), splitLines(base), splitLines(theirs));
  const chunks: MergeChunk[] = [];
  for (const region of regions) {
    if (region.ok) {
      pushSame(chunks, region.ok.join(''));
    } else if (region.conflict) {
      chunks.push({
        kind: 'conflict',
        base: region.conflict.o.join(''),
        mine: region.conflict.a.join(''),
        theirs: region.conflict.b.join(''),
      });
    }
  }
  if (chunks.every((chunk) => chunk.kind === 'same')) {
    return { clean: true, text: chunks.map((chunk) => (chunk.kind === 'same' ? chunk.text : '')).join('') };
  }
  return { clean: false, chunks };
}

/** The text of a merge with each conflict resolved by `pick` (for "take mine"/"take theirs" everywhere). */
export function resolveChunks(chunks: MergeChunk[], pick: 'mine' | 'theirs'): string {
  return chunks.map((chunk) => (chunk.kind === 'same' ? chunk.text : chunk[pick])).join('');
}

/** Lines with their endings kept ("a\r\n", "b\n", "c"), so joining them gives the text back. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function pushSame(chunks: MergeChunk[], text: string): void {
  if (text === '') return;
  const last = chunks.at(-1);
  if (last?.kind === 'same') last.text += text;
  else chunks.push({ kind: 'same', text });
}
