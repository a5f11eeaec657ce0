import { parse as parseYaml } from 'yaml';
import type { MemoryShape } from './memory-types.js';

/** What the app writes into a memory's frontmatter. */
export interface MemoryHead {
  name: string;
  description: string;
  type: string;
  /** The conversation that wrote it (recorded on the agent's memories). */
  originSessionId?: string | null;
  /** When it was written (ISO 8601): the metadata shape's `metadata.modified`; the 2.1.88 shape has no such key. */
  modified?: string | null;
}

/**
 * One YAML scalar that strict YAML reads back as exactly `value`: plain when it is safe, else
 * double-quoted (a JSON string is a valid YAML double-quoted scalar). Newlines become spaces: every
 * field is one line (docs/memory.md#auto-memory). No `---` is ever written inside the block (see below).
 */
export function yamlScalar(value: string): string {
  const line = value.replace(/\s*[\r\n]+\s*/g, ' ');
  if (line !== '' && line === line.trim() && !/[\t"']|---/.test(line)) {
    try {
      if (parseYaml(`k: ${line}`, { logLevel: 'error' })?.k === line) return line;
    } catch {
      // Not a plain scalar: quoted below.
    }
  }
  // Claude Code ends the block at the first `---` anywhere, even inside quotes: escape one dash.
  return JSON.stringify(line).replace(/---/g, '-\\u002D-');
}

/** The newest Claude Code's memory name: a kebab-case slug (its own rule: kept when already one). */
export function kebabName(name: string): string {
  if (/^[a-z0-9_-]+$/.test(name)) return name;
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'memory';
}

/**
 * The frontmatter block for a memory in the chosen shape (2.1.88: top-level `type`; metadata: the
 * newest Claude Code's `metadata: {node_type, type, originSessionId, modified}`, in its order), each
 * value quoted when plain YAML would misread it.
 */
export function renderFrontmatter(head: MemoryHead, shape: MemoryShape = '2.1.88'): string {
  const name = shape === 'metadata' ? kebabName(head.name) : head.name;
  const lines = [`name: ${yamlScalar(name)}`, `description: ${yamlScalar(head.description)}`];
  if (shape === 'metadata') {
    lines.push('metadata:', '  node_type: memory', `  type: ${yamlScalar(head.type)}`);
    if (head.originSessionId) lines.push(`  originSessionId: ${yamlScalar(head.originSessionId)}`);
    if (head.modified) lines.push(`  modified: ${yamlScalar(head.modified)}`);
  } else {
    lines.push(`type: ${yamlScalar(head.type)}`);
    if (head.originSessionId) lines.push(`originSessionId: ${yamlScalar(head.originSessionId)}`);
  }
  return `---\n${lines.join('\n')}\n---\n`;
}

/** A whole memory file: frontmatter, a blank line, the body (leading blank lines dropped, one final newline). */
export function renderMemoryFile(head: MemoryHead, body: string, shape: MemoryShape = '2.1.88'): string {
  const text = body.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
  return `${renderFrontmatter(head, shape)}\n${text}\n`;
}
