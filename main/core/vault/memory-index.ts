import type { MemoryConfig } from '../../../common/config.js';
import type { IndexLine, MemoryIndexView } from '../../../common/domain/vault.js';
import { estimateTextTokens } from '../llm/tokens.js';

/**
 * MEMORY.md, the index of a memory folder (SPEC §4): one line a memory, `- [Title](file.md) — hook`.
 * The model owns these lines; the vault edits them only for the user's own actions (create, rename,
 * delete, Undo, a one-click fix) and otherwise only reports broken pointers and unindexed files.
 */

export const INDEX_FILE = 'MEMORY.md';

const LINE = /^(\s*[-*+]\s+\[)((?:[^\]\\]|\\.)*)(\]\()([^)\s]+)(\))(.*)$/;

/** A pointer line as written: where its title and target are. */
export interface ParsedIndexLine {
  line: number;
  title: string;
  target: string;
  hook: string;
}

const normaliseTarget = (target: string): string => {
  let t = target.trim();
  try {
    t = decodeURIComponent(t);
  } catch {
    // A malformed escape stays as written.
  }
  return t.replace(/^\.\//, '');
};

/** Every pointer line of an index, in order (other lines — headings, prose — are skipped). */
export function parseIndex(text: string): ParsedIndexLine[] {
  const out: ParsedIndexLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const m = LINE.exec(raw.replace(/\r$/, ''));
    if (!m) return;
    const hook = m[6]!.replace(/^\s*(?:[—–]|-{1,2}|:)\s*/, '').trim();
    out.push({ line: i + 1, title: m[2]!, target: normaliseTarget(m[4]!), hook });
  });
  return out;
}

/**
 * The MEMORY.md view of one memory folder. `memoryFiles` are the folder's memory files relative to
 * it (`topic.md`, for team memory possibly `sub/topic.md`), MEMORY.md itself excluded.
 */
export function buildIndexView(
  projectSlug: string,
  indexText: string | null,
  memoryFiles: string[],
  config: MemoryConfig['autoMemory'],
): MemoryIndexView {
  const text = indexText ?? '';
  const existing = new Set(memoryFiles);
  const parsed = parseIndex(text);
  const lines: IndexLine[] = parsed.map((p) => ({ ...p, broken: !existing.has(p.target) }));
  const pointed = new Set(parsed.map((p) => p.target));
  const lineCount = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return {
    projectSlug,
    lines,
    missing: memoryFiles.filter((f) => !pointed.has(f)).sort(),
    headroom: {
      lines: lineCount,
      maxLines: config.indexMaxLines,
      chars: text.length,
      maxChars: config.indexMaxChars,
      tokens: estimateTextTokens(text),
    },
  };
}

/** Points every line aimed at `from` at `to` instead (a rename); null when no line pointed at it. */
export function retargetIndex(text: string, from: string, to: string): string | null {
  let changed = false;
  const out = text.split('\n').map((raw) => {
    const m = LINE.exec(raw.replace(/\r$/, ''));
    if (!m || normaliseTarget(m[4]!) !== from) return raw;
    changed = true;
    const cr = raw.endsWith('\r') ? '\r' : '';
    return `${m[1]}${m[2]}${m[3]}${to}${m[5]}${m[6]}${cr}`;
  });
  return changed ? out.join('\n') : null;
}

/** Drops the lines pointing at `target`; null when none did. */
export function removeFromIndex(text: string, target: string): string | null {
  const lines = text.split('\n');
  const kept = lines.filter((raw) => {
    const m = LINE.exec(raw.replace(/\r$/, ''));
    return !(m && normaliseTarget(m[4]!) === target);
  });
  return kept.length === lines.length ? null : kept.join('\n');
}

/** Appends a pointer line (SPEC §4 shape, about 150 characters). */
export function addToIndex(text: string, target: string, title: string, hook: string): string {
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  let line = `- [${oneLine(title).replace(/[[\]]/g, '')}](${target})`;
  const h = oneLine(hook);
  if (h) line += ` — ${h.length > 120 ? `${h.slice(0, 119)}…` : h}`;
  if (text === '') return `${line}\n`;
  return `${text.endsWith('\n') ? text : `${text}\n`}${line}\n`;
}
