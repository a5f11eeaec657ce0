import { bareImportItem, type ImportFinding, type ImportItem, type ImportPreview } from '../../../common/domain/portability.js';
import { parseMemoryFile, renderMemoryFile, type MemoryShape } from '../../../common/memory-file/index.js';
import { redactValues, secretRules, secretValues, type Finding } from '../secrets/index.js';

/**
 * Imports are scanned like any agent write (docs/memory-upkeep.md "Bringing memory in"): the file each
 * item would write goes through the vault's one scan (rules + the "Not a secret" list), in the preview
 * and again at the write; and nothing is derived from a secret — not a name, a description (which
 * becomes the MEMORY.md line, read into every conversation) or a file name.
 */

/** The vault's scan (`vaultSecretScan`): findings with their fingerprint and span, never the value. */
export type ImportScan = (text: string) => Finding[];

const labels = new Map(secretRules.map((r) => [r.id, r.description]));

/**
 * What blanks, in anything derived from `sources`, every value the scan finds in them: a name taken from
 * "my github token is ghp_…" keeps the words and loses the token.
 */
export function secretBlanker(scan: ImportScan, ...sources: string[]): (derived: string) => string {
  const values = [...new Set(sources.flatMap((s) => secretValues(s, scan(s))))].sort((a, b) => b.length - a.length);
  return values.length === 0 ? (derived) => derived : (derived) => redactValues(derived, values);
}

/** The text an item writes: a file kept as it is, else rendered in the vault's shape. */
export function importFileText(item: ImportItem, shape: MemoryShape, modified: string): string {
  return item.verbatim ?? renderMemoryFile({ name: item.name, description: item.description, type: item.type, modified }, item.body, shape);
}

/** A preview scans the file with this date (the write, with its own): a date line holds no secret. */
const SCAN_DATE = '2000-01-01T00:00:00.000Z';

/**
 * Where a finding of the written file is, in the terms of the preview: the item's name, description or
 * text (counted from its first line that is not blank, as the preview shows it).
 */
function locate(finding: Finding, lines: readonly string[], bodyLine: number): ImportFinding {
  const at = { rule: finding.rule, label: labels.get(finding.rule) ?? 'a secret', ...(finding.fingerprint ? { fingerprint: finding.fingerprint } : {}) };
  if (finding.line >= bodyLine) {
    let first = bodyLine;
    while (first < finding.line && !lines[first - 1]?.trim()) first++;
    return { ...at, field: 'text', line: finding.line - first + 1 };
  }
  const key = /^(name|description):/.exec(lines[finding.line - 1] ?? '')?.[1] as 'name' | 'description' | undefined;
  return key ? { ...at, field: key, line: 1 } : { ...at, field: 'header', line: finding.line };
}

/** A file's text as the preview shows it: from its first line that is not blank. */
export const shownBody = (body: string) => body.replace(/^(?:[ \t]*\r?\n)+/, '');

/**
 * The item with what the scan finds in the file it would write: where each finding is (never the value),
 * and the item with every such value blanked, for "Leave the secret out" (absent when blanking would
 * not make it clean).
 */
export function scanImportItem(item: ImportItem, scan: ImportScan, shape: MemoryShape, modified = SCAN_DATE): ImportItem {
  const bare = bareImportItem(item);
  const text = importFileText(bare, shape, modified);
  const found = scan(text);
  if (found.length === 0) return bare;
  const { bodyLine } = parseMemoryFile(text);
  const lines = text.split('\n');
  const findings = found.map((f) => locate(f, lines, bodyLine));
  const values = secretValues(text, found);
  const blank = (s: string) => redactValues(s, values);
  let withoutSecrets: ImportItem['withoutSecrets'];
  if (bare.verbatim !== undefined) {
    const verbatim = blank(bare.verbatim);
    const parsed = parseMemoryFile(verbatim);
    withoutSecrets = { name: parsed.name ?? blank(bare.name), description: parsed.description ?? blank(bare.description), body: shownBody(parsed.body), verbatim };
  } else {
    withoutSecrets = { name: blank(bare.name), description: blank(bare.description), body: blank(bare.body) };
  }
  const clean = values.length > 0 && scan(importFileText({ ...bare, ...withoutSecrets }, shape, modified)).length === 0;
  return { ...bare, findings, ...(clean ? { withoutSecrets } : {}) };
}

/** What a preview is scanned with: the vault's scan and the shape its memories are written in. */
export interface ImportGuard {
  scan: ImportScan;
  shape: MemoryShape;
}

/** A preview with each item scanned; a skipped part shown back to the user has its values blanked too. */
export function scanPreview(preview: ImportPreview, guard: ImportGuard): ImportPreview {
  return {
    ...preview,
    items: preview.items.map((item) => scanImportItem(item, guard.scan, guard.shape)),
    skipped: preview.skipped.map((s) => ({ ...s, what: secretBlanker(guard.scan, s.what)(s.what) })),
  };
}
