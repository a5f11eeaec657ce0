import { parse as parseYaml } from 'yaml';
import { memoryTypeOf, type MemoryShape, type MemoryType } from './memory-types.js';

/**
 * Frontmatter as Claude Code 2.1.88 reads it (cli.js `parseFrontmatter`, run over the file after its
 * reader drops a byte-order mark and the `\r` of CRLF line ends): the block is `^---\s*\n(…?)---`, the
 * closing `---` found lazily; the YAML is parsed as is, and when that fails, once more after quoting
 * every `key: value` line whose value holds `: ` or a YAML indicator character. What still fails, or is
 * not a mapping, gives Claude Code no fields at all; here it is reported as an error instead.
 */
const BLOCK = /^---\s*\n([\s\S]*?)---/;
const FALLBACK_LINE = /^([a-zA-Z_-]+):\s+(.+)$/;
const FALLBACK_SPECIAL = /[{}[\]*&#!|>%@`]|: /;

/** Why a memory file looks wrong; it is kept and listed all the same (docs/memory.md#auto-memory: never refused for its shape). */
export type MemoryFlag = 'no-frontmatter' | 'malformed-frontmatter' | 'untyped' | 'missing-name' | 'missing-description';

/** A markdown file's frontmatter block, located but not parsed. */
export interface FrontmatterBlock {
  /** The YAML between the fences, CRLF turned into LF. */
  yaml: string;
  /** The text after the closing fence's line. */
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyLine: number;
}

/** The fields of a memory's frontmatter, whichever shape it was written in. */
export interface MemoryFields {
  name: string | null;
  description: string | null;
  /** A known type; `untyped` when a type is given but unknown; null when none is given. */
  type: MemoryType | 'untyped' | null;
  /** The raw type as written (top-level `type`, else `metadata.type`), so an unknown one can be shown. */
  rawType: string | null;
  /** Which shape carried the type: `metadata` when only `metadata.type` did. */
  shape: MemoryShape;
  /** The conversation that wrote the memory (newest Claude Code), top level or under `metadata`. */
  originSessionId: string | null;
}

/** A memory file's parsed head and body: the one answer every reader of the app gives. */
export interface ParsedMemory extends MemoryFields {
  hasFrontmatter: boolean;
  body: string;
  bodyLine: number;
  flags: MemoryFlag[];
  /** Why the frontmatter gives no fields (malformed YAML, not a mapping); null otherwise. */
  frontmatterError: string | null;
  /** The whole mapping as parsed (empty when there is none), so a rewrite keeps unknown keys. */
  data: Record<string, unknown>;
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Locates the frontmatter block; null when the file has none (or it is never closed). */
export function splitFrontmatter(text: string): FrontmatterBlock | null {
  const source = stripBom(text);
  const offset = text.length - source.length;
  // Claude Code matches after CRLF became LF; `\s*` after the opening fence already takes a `\r`.
  const match = BLOCK.exec(source);
  if (!match) return null;
  let end = match[0].length;
  // The closing fence's line ends here; the body keeps its own blank lines (a save does not eat them).
  while (source[end] === ' ' || source[end] === '\t') end++;
  if (source[end] === '\r') end++;
  if (source[end] === '\n') end++;
  return {
    yaml: match[1]!.replace(/\r\n/g, '\n'),
    body: source.slice(end),
    bodyLine: 1 + countNewlines(text, offset + end),
  };
}

/** Claude Code's second try: quote the values YAML choked on (cli.js, same characters). */
export function quoteSpecialValues(yaml: string): string {
  return yaml
    .split('\n')
    .map((line) => {
      const m = FALLBACK_LINE.exec(line);
      if (!m) return line;
      const [, key, value] = m as unknown as [string, string, string];
      if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) return line;
      if (!FALLBACK_SPECIAL.test(value)) return line;
      return `${key}: "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    })
    .join('\n');
}

const strictParse = (yaml: string): unknown => parseYaml(yaml, { logLevel: 'error' });

/** The frontmatter YAML as a mapping, or the reason it gives none. */
export function parseFrontmatterYaml(yaml: string): { data: Record<string, unknown> } | { error: string } {
  let data: unknown = simpleMapping(yaml);
  try {
    data ??= strictParse(yaml);
  } catch (first) {
    try {
      data = strictParse(quoteSpecialValues(yaml));
    } catch {
      return { error: `The frontmatter is not valid YAML: ${firstLine(first)}` };
    }
  }
  if (data === null || data === undefined) return { data: {} };
  if (typeof data !== 'object' || Array.isArray(data)) return { error: 'The frontmatter is not a list of key: value lines' };
  return { data: data as Record<string, unknown> };
}

/** A scalar field as text: strings trimmed, numbers and booleans written out, anything else absent. */
export const fieldText = (v: unknown): string | null =>
  typeof v === 'string' ? v.trim() || null : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

/** name, description, type and provenance from a parsed mapping, in either shape. */
export function memoryFields(data: Record<string, unknown>): MemoryFields {
  const metadata = data.metadata !== null && typeof data.metadata === 'object' && !Array.isArray(data.metadata)
    ? (data.metadata as Record<string, unknown>)
    : {};
  const topType = fieldText(data.type);
  const rawType = topType ?? fieldText(metadata.type);
  return {
    name: fieldText(data.name),
    description: fieldText(data.description),
    type: memoryTypeOf(rawType),
    rawType,
    shape: topType === null && rawType !== null ? 'metadata' : '2.1.88',
    originSessionId: fieldText(data.originSessionId) ?? fieldText(metadata.originSessionId),
  };
}

/** Parses a memory file (or any markdown file with frontmatter) and flags what is missing or wrong. */
export function parseMemoryFile(text: string): ParsedMemory {
  const block = splitFrontmatter(text);
  const none: MemoryFields = { name: null, description: null, type: null, rawType: null, shape: '2.1.88', originSessionId: null };
  if (!block) {
    return { ...none, hasFrontmatter: false, body: stripBom(text), bodyLine: 1, flags: ['no-frontmatter'], frontmatterError: null, data: {} };
  }
  const parsed = parseFrontmatterYaml(block.yaml);
  const base = { hasFrontmatter: true, body: block.body, bodyLine: block.bodyLine };
  if ('error' in parsed) {
    return { ...none, ...base, flags: ['malformed-frontmatter'], frontmatterError: parsed.error, data: {} };
  }
  const fields = memoryFields(parsed.data);
  const flags: MemoryFlag[] = [];
  if (fields.type === null || fields.type === 'untyped') flags.push('untyped');
  if (!fields.name) flags.push('missing-name');
  if (!fields.description) flags.push('missing-description');
  return { ...fields, ...base, flags, frontmatterError: null, data: parsed.data };
}

/**
 * What a memory file lacks that the app reports as an error (the vault's badge, Health): no frontmatter,
 * frontmatter that gives no fields, or no name or description. An unknown type is not an error.
 */
export function memoryProblem(parsed: ParsedMemory): string | null {
  if (!parsed.hasFrontmatter) return 'No frontmatter: a memory needs name, description and type';
  if (parsed.frontmatterError) return parsed.frontmatterError;
  const missing = [!parsed.name && 'name', !parsed.description && 'description'].filter(Boolean);
  return missing.length ? `The frontmatter lacks ${missing.join(' and ')}` : null;
}

const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(.*?)[ \t]*$/;
const PLAIN_VALUE = /^[^\s'"{}[\]|>&*!%@`#,?:-][^#]*$/;
const TYPED_VALUE = /^(?:null|~|true|false|yes|no|on|off|[-+.]?\d.*|\..*)$/i;

/**
 * The common frontmatter — `key: plain words` lines only — read without the YAML parser, which is the
 * bulk of a 10,000-note scan. Anything YAML could read differently (quotes, colons, comments, lists,
 * values it would type, repeated keys) returns null and goes to the real parser.
 */
function simpleMapping(yaml: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const line of yaml.split('\n')) {
    if (line.trim() === '') continue;
    const m = SIMPLE_LINE.exec(line);
    if (!m) return null;
    const [, key, value] = m as unknown as [string, string, string];
    if (value === '' || !PLAIN_VALUE.test(value) || TYPED_VALUE.test(value) || value.includes(': ')) return null;
    if (Object.hasOwn(out, key)) return null;
    out[key] = value;
  }
  return out;
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0];
