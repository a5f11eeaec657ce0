/**
 * MEMORY.md, the index of a memory folder (docs/memory.md#auto-memory): one line a memory, `- [Title](file.md) — hook`.
 * The one parser of its pointer lines. Lenient as a markdown reader is: `*`/`+` bullets, escaped
 * brackets in the title, `<file with spaces.md>` and `%20` targets, an optional `"link title"`, and
 * `—`, `–`, `-` or `:` before the hook. Other lines (headings, prose, web links) are not pointers.
 */

export const INDEX_FILE_NAME = 'MEMORY.md';

/** One pointer line as written. */
export interface IndexPointer {
  /** 1-based line number in MEMORY.md. */
  line: number;
  /** The link text, markdown escapes removed. */
  title: string;
  /** The target as a path relative to the memory folder (`./a.md` → `a.md`, `<a b.md>` and `%20` decoded). */
  target: string;
  hook: string;
}

const POINTER = /^(\s*[-*+]\s+\[)((?:[^\]\\]|\\.)*)(\]\()(<[^>]*>|[^)\s]+)((?:\s+"[^"]*")?\))(.*)$/;

/** A link target as a path relative to the memory folder. */
export function normalizeTarget(target: string): string {
  let t = target.trim().replace(/^<([\s\S]*)>$/, '$1').split('#')[0]!;
  try {
    t = decodeURIComponent(t);
  } catch {
    // A malformed escape stays as written.
  }
  return t.replace(/^\.\//, '');
}

const unescapeMarkdown = (s: string) => s.replace(/\\([\\`*_{}[\]()#+\-.!<>|])/g, '$1');

/** The pointer on one line of MEMORY.md, or null when the line is not one. */
export function parsePointerLine(raw: string, line = 1): IndexPointer | null {
  const m = POINTER.exec(raw.replace(/\r$/, ''));
  if (!m) return null;
  const target = normalizeTarget(m[4]!);
  if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // a web link is not a pointer to a memory
  const hook = m[6]!.replace(/^\s*(?:[—–]|-{1,2}|:)\s*/, '').trim();
  return { line, title: unescapeMarkdown(m[2]!).trim(), target, hook };
}

/** Every pointer line of an index, in order. */
export function parseIndex(text: string): IndexPointer[] {
  const out: IndexPointer[] = [];
  text.split('\n').forEach((raw, i) => {
    const p = parsePointerLine(raw, i + 1);
    if (p) out.push(p);
  });
  return out;
}

/** A target as a link: `<…>` when it holds a space or a character that would end the link. */
export const formatTarget = (target: string): string => (/[\s()<>]/.test(target) ? `<${target}>` : target);

/** A pointer line as the app writes it: `- [Title](file.md) — hook`, one line, about 150 characters. */
export function formatIndexLine(title: string, target: string, hook: string): string {
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  let line = `- [${oneLine(title).replace(/[[\]\\]/g, '\\$&')}](${formatTarget(target)})`;
  const h = oneLine(hook);
  if (h) line += ` — ${h.length > 120 ? `${h.slice(0, 119)}…` : h}`;
  return line;
}

/** Points every line aimed at `from` at `to` instead (a rename); null when no line pointed at it. */
export function retargetIndex(text: string, from: string, to: string): string | null {
  let changed = false;
  const out = text.split('\n').map((raw) => {
    const m = POINTER.exec(raw.replace(/\r$/, ''));
    if (!m || parsePointerLine(raw)?.target !== from) return raw;
    changed = true;
    const cr = raw.endsWith('\r') ? '\r' : '';
    return `${m[1]}${m[2]}${m[3]}${formatTarget(to)}${m[5]}${m[6]}${cr}`;
  });
  return changed ? out.join('\n') : null;
}

/** Drops the lines pointing at `target`; null when none did. */
export function removeFromIndex(text: string, target: string): string | null {
  const lines = text.split('\n');
  const kept = lines.filter((raw) => parsePointerLine(raw)?.target !== target);
  return kept.length === lines.length ? null : kept.join('\n');
}
