import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { Frontmatter, MemoryType } from '../../../common/domain/vault.js';

/** A markdown file split into its YAML frontmatter and body (SPEC §4: name, description, type). */
export interface ParsedMarkdown {
  frontmatter: Frontmatter | null;
  /** Present-but-malformed frontmatter, or a memory file without any; the raw text is kept as is. */
  frontmatterError: string | null;
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyLine: number;
}

const memoryTypes: readonly string[] = ['user', 'feedback', 'project', 'reference'];

/** SPEC §4: unknown types are kept and shown as untyped. */
export function memoryTypeOf(type: string | undefined | null): MemoryType | 'untyped' | null {
  if (type === undefined || type === null || type === '') return null;
  return memoryTypes.includes(type) ? (type as MemoryType) : 'untyped';
}

const OPEN = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;

/**
 * Splits and parses frontmatter. Never throws: a memory's write is never refused for its shape (SPEC
 * §4), so a bad block becomes `frontmatterError` and the body is what follows the block.
 */
export function parseMarkdown(text: string, requireFrontmatter = false): ParsedMarkdown {
  const open = OPEN.exec(text);
  if (!open) {
    return {
      frontmatter: null,
      frontmatterError: requireFrontmatter ? 'No frontmatter: a memory needs name, description and type' : null,
      body: text,
      bodyLine: 1,
    };
  }
  const after = text.slice(open[0].length);
  const close = CLOSE.exec(after);
  if (!close) {
    return { frontmatter: null, frontmatterError: 'Frontmatter is not closed with ---', body: text, bodyLine: 1 };
  }
  const yamlText = after.slice(0, close.index);
  let bodyStart = close.index + close[0].length;
  if (after[bodyStart] === '\r') bodyStart++;
  if (after[bodyStart] === '\n') bodyStart++;
  const body = after.slice(bodyStart);
  const bodyLine = 1 + countLines(text.slice(0, open[0].length + bodyStart));
  let data: unknown = simpleMapping(yamlText);
  try {
    data ??= parseYaml(yamlText, { prettyErrors: true, uniqueKeys: false });
  } catch (error) {
    return { frontmatter: null, frontmatterError: `Frontmatter is not valid YAML: ${firstLine(error)}`, body, bodyLine };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { frontmatter: null, frontmatterError: 'Frontmatter is not a key: value mapping', body, bodyLine };
  }
  const record = data as Record<string, unknown>;
  const field = (key: string) => (record[key] === undefined || record[key] === null ? '' : String(record[key]));
  const frontmatter: Frontmatter = { name: field('name'), description: field('description'), type: field('type') };
  const missing = requireFrontmatter ? (['name', 'description'] as const).filter((k) => frontmatter[k].trim() === '') : [];
  return {
    frontmatter,
    frontmatterError: missing.length ? `Frontmatter lacks ${missing.join(' and ')}` : null,
    body,
    bodyLine,
  };
}

/** Renders a memory file: frontmatter block + body (what `create-memory` writes). */
export function renderMemory(frontmatter: Frontmatter, body: string): string {
  const yamlText = stringifyYaml(
    { name: frontmatter.name, description: frontmatter.description, type: frontmatter.type },
    { lineWidth: 0 },
  );
  return `---\n${yamlText}---\n\n${body.replace(/^\n+/, '')}`;
}

const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
const PLAIN_VALUE = /^[^\s'"{}[\]|>&*!%@`#,?:-][^#]*$/;
const TYPED_VALUE = /^(?:null|~|true|false|yes|no|on|off|[-+.]?\d.*|\..*)$/i;

/**
 * The common frontmatter — `key: plain words` lines only — read without the YAML parser, which is
 * the bulk of a 10,000-note scan (issue 4 bench `vault-ready`). Anything else (quotes, colons,
 * comments, lists, values YAML would type) returns null and goes to the real parser.
 */
function simpleMapping(yamlText: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const raw of yamlText.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const m = SIMPLE_LINE.exec(line);
    if (!m) return null;
    const value = m[2] ?? '';
    if (value !== '' && (!PLAIN_VALUE.test(value) || TYPED_VALUE.test(value) || value.includes(': '))) return null;
    if (value === '') return null;
    out[m[1]!] = value;
  }
  return out;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0];
