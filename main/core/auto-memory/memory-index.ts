import { parseIndex as parsePointers } from '../../../common/memory-file/index.js';
import { estimateTextTokens } from '../llm/index.js';

export { formatIndexLine, normalizeTarget } from '../../../common/memory-file/index.js';

/** One `- [Title](file.md) — hook` line of MEMORY.md (docs/memory.md#auto-memory). Same shape as `common/domain/vault.ts` IndexLine. */
export interface IndexEntry {
  /** 1-based line number in MEMORY.md. */
  line: number;
  title: string;
  /** The link target as written (relative to the memory folder). */
  target: string;
  hook: string;
  /** The target file does not exist. */
  broken: boolean;
}

/** Caps applied when MEMORY.md is loaded into a conversation (docs/memory.md#auto-memory, docs/memory.md#memory-index). */
export interface IndexCaps {
  maxLines: number;
  maxChars: number;
}

/**
 * The index's pointer lines (parsed by the one MEMORY.md parser, `common/memory-file`); `exists` says
 * whether a target is present, so pointers to missing files are flagged (the store never rewrites the
 * model's lines to fix them, docs/memory.md#auto-memory).
 */
export function parseIndex(text: string, exists: (target: string) => boolean): IndexEntry[] {
  return parsePointers(text).map((p) => ({ ...p, broken: !exists(p.target) }));
}

/** What load-time truncation removed, so the warning can name it. */
export interface IndexTruncation {
  content: string;
  truncated: boolean;
  /** The original line count and character count (trimmed text, UTF-16 length as the reference measures). */
  lines: number;
  chars: number;
  /** Index lines (1-based, inclusive) that did not make it into the loaded content. */
  cutLines: { from: number; to: number } | null;
  warning: string | null;
}

/**
 * docs/memory.md#memory-index: trim; keep the first `maxLines` lines; if still over `maxChars`, cut at the last newline at or
 * before it (hard cut when there is none); then append a visible blockquote warning naming what was cut.
 */
export function truncateIndex(raw: string, caps: IndexCaps): IndexTruncation {
  const trimmed = raw.trim();
  const lines = trimmed === '' ? [] : trimmed.split('\n');
  const chars = trimmed.length;
  const overLines = lines.length > caps.maxLines;
  const overChars = chars > caps.maxChars;
  if (!overLines && !overChars) {
    return { content: trimmed, truncated: false, lines: lines.length, chars, cutLines: null, warning: null };
  }
  let kept = overLines ? lines.slice(0, caps.maxLines).join('\n') : trimmed;
  if (kept.length > caps.maxChars) {
    const cut = kept.lastIndexOf('\n', caps.maxChars);
    kept = cut > 0 ? kept.slice(0, cut) : kept.slice(0, caps.maxChars);
  }
  const keptLines = kept === '' ? 0 : kept.split('\n').length;
  const partial = !kept.endsWith(lines[keptLines - 1] ?? '') ? 1 : 0;
  const firstCut = keptLines - partial + 1;
  const reasons: string[] = [];
  if (overLines) reasons.push(`${lines.length} lines (limit: ${caps.maxLines})`);
  if (overChars) reasons.push(`${chars.toLocaleString('en-US')} characters (limit: ${caps.maxChars.toLocaleString('en-US')}) — index entries are too long`);
  const cutLines = { from: firstCut, to: lines.length };
  const firstCutText = (lines[firstCut - 1] ?? '').trim().slice(0, 120);
  const warning =
    `> WARNING: MEMORY.md is ${reasons.join(' and ')}. Only part of it was loaded: ` +
    `lines ${cutLines.from}–${cutLines.to} were cut, starting at "${firstCutText}". ` +
    'Keep index entries to one line under ~200 characters and move details into topic files.';
  return { content: `${kept}\n\n${warning}`, truncated: true, lines: lines.length, chars, cutLines, warning };
}

/** Headroom of MEMORY.md against its load caps, for the vault's notice before anything is cut (docs/memory.md#auto-memory). */
export interface IndexHeadroom {
  lines: number;
  maxLines: number;
  chars: number;
  maxChars: number;
  tokens: number;
  /** Estimated tokens of a full index at the caps. */
  maxTokens: number;
  /** The larger of lines/maxLines and chars/maxChars, 0–1+ (≥ 1 means something is cut at load). */
  fill: number;
}

export function indexHeadroom(raw: string, caps: IndexCaps): IndexHeadroom {
  const trimmed = raw.trim();
  const lines = trimmed === '' ? 0 : trimmed.split('\n').length;
  const chars = trimmed.length;
  return {
    lines,
    maxLines: caps.maxLines,
    chars,
    maxChars: caps.maxChars,
    tokens: estimateTextTokens(trimmed),
    maxTokens: estimateTextTokens('x'.repeat(caps.maxChars)),
    fill: Math.max(lines / caps.maxLines, chars / caps.maxChars),
  };
}
