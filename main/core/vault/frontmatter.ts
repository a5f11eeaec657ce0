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
  let data: unknown;
  try {
    data = parseYaml(yamlText, { prettyErrors: true, uniqueKeys: false });
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

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0];
