import { text, type ScriptedResponse, type WireRequest } from '../../test/fakes/anthropic-server/index.js';
import { meaningOf, wordsOf } from './concepts.js';

/**
 * The fake model's side of the recall selector call, scripted from the manifest's descriptions as the
 * real selector answers: it sees only the question and the listed lines (type, file, date,
 * description), never the bodies or the labels. A line qualifies when its description names every
 * proper noun of the question and shares at least one meaning with it; the best lines (and those one
 * shared meaning behind) are picked, newest first on ties, at most 5; nothing qualifies → an empty list.
 */

interface ManifestLine {
  file: string;
  savedAt: number;
  description: string;
}

const LINE = /^- (?:\[[^\]]+\] )?(\S+) \(([^)]+)\)(?:: (.*))?$/;

export function parseManifest(manifest: string): ManifestLine[] {
  return manifest.split('\n').flatMap((l) => {
    const m = LINE.exec(l.trim());
    return m ? [{ file: m[1]!, savedAt: Date.parse(m[2]!), description: m[3] ?? '' }] : [];
  });
}

/** Capitalised words after the first that carry no known concept: names the answer must mention. */
function properNouns(query: string): string[] {
  const words = query.split(/[^\p{L}\p{N}']+/u).filter(Boolean).slice(1);
  return words.filter((w) => /^\p{Lu}/u.test(w) && w !== 'I' && meaningOf(w).has(w.toLowerCase())).map((w) => w.toLowerCase());
}

export function selectFromManifest(query: string, lines: readonly ManifestLine[], max = 5): string[] {
  const names = properNouns(query);
  const wanted = [...meaningOf(query)].filter((m) => !names.includes(m));
  const scored = lines.flatMap((l) => {
    const words = new Set(wordsOf(l.description));
    if (!names.every((n) => words.has(n))) return [];
    const meaning = meaningOf(l.description);
    const score = wanted.filter((m) => meaning.has(m)).length;
    return score > 0 ? [{ ...l, score }] : [];
  });
  const best = Math.max(0, ...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score >= best - 1)
    .sort((a, b) => b.score - a.score || b.savedAt - a.savedAt)
    .slice(0, max)
    .map((s) => s.file);
}

/** Auto-mode responder for the fake Messages API: answers a selector call with its JSON. */
export function scriptedSelectorResponder(request: WireRequest): ScriptedResponse {
  const last = request.messages?.at(-1);
  const userText = !last ? '' : typeof last.content === 'string' ? last.content : last.content.filter((b) => b.type === 'text').map((b) => String(b.text)).join('\n');
  const m = /^Query: (.*)\n\nAvailable memories:\n([\s\S]*?)(?:\n\nRecently used tools:.*)?$/.exec(userText);
  if (!m) return text('{"selected_memories": []}');
  return text(JSON.stringify({ selected_memories: selectFromManifest(m[1]!, parseManifest(m[2]!)) }));
}
