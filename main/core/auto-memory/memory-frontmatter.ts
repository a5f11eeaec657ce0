import { parse as parseYaml } from 'yaml';

/** SPEC §4: the four memory types. */
export const memoryTypes = ['user', 'feedback', 'project', 'reference'] as const;
export type MemoryType = (typeof memoryTypes)[number];

/** Why a memory file looks wrong; it is kept and listed all the same (SPEC §4: never refused for its shape). */
export type MemoryFlag = 'no-frontmatter' | 'malformed-frontmatter' | 'untyped' | 'missing-name' | 'missing-description';

/** A memory file's parsed head and body. */
export interface ParsedMemory {
  name: string | null;
  description: string | null;
  /** A known type; `untyped` when a type is given but unknown; null when none is given. */
  type: MemoryType | 'untyped' | null;
  /** The raw `type` value as written, so an unknown one can be shown. */
  rawType: string | null;
  body: string;
  flags: MemoryFlag[];
  /** The YAML parser's message when the frontmatter is malformed. */
  frontmatterError: string | null;
}

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const asText = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

/** Parses `---` YAML frontmatter (name, description, type) and flags what is missing or wrong. */
export function parseMemoryFile(text: string): ParsedMemory {
  const match = FRONTMATTER.exec(text);
  if (!match) {
    return { name: null, description: null, type: null, rawType: null, body: text, flags: ['no-frontmatter'], frontmatterError: null };
  }
  const body = text.slice(match[0].length);
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'unparseable YAML';
    return { name: null, description: null, type: null, rawType: null, body, flags: ['malformed-frontmatter'], frontmatterError: message };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      name: null, description: null, type: null, rawType: null, body,
      flags: ['malformed-frontmatter'], frontmatterError: 'frontmatter is not a mapping',
    };
  }
  const record = data as Record<string, unknown>;
  const name = asText(record.name);
  const description = asText(record.description);
  const rawType = asText(record.type);
  const type = rawType === null ? null : (memoryTypes as readonly string[]).includes(rawType) ? (rawType as MemoryType) : 'untyped';
  const flags: MemoryFlag[] = [];
  if (type === 'untyped' || type === null) flags.push('untyped');
  if (!name) flags.push('missing-name');
  if (!description) flags.push('missing-description');
  return { name, description, type, rawType, body, flags, frontmatterError: null };
}

/** Renders a memory file for the user's own "new memory" action in the vault. */
export function renderMemoryFile(fields: { name: string; description: string; type: string }, body: string): string {
  const line = (key: string, value: string) => `${key}: ${JSON.stringify(value.replace(/\s*\n\s*/g, ' '))}`;
  return `---\n${line('name', fields.name)}\n${line('description', fields.description)}\ntype: ${/^[a-z-]+$/.test(fields.type) ? fields.type : JSON.stringify(fields.type)}\n---\n\n${body.trim()}\n`;
}
