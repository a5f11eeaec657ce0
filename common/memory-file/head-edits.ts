import { isMap, parseDocument, type Document, type YAMLMap } from 'yaml';
import { parseFrontmatterYaml, parseMemoryFile, splitFrontmatter } from './frontmatter.js';
import type { MemoryShape } from './memory-types.js';
import { kebabName } from './write.js';
import { stampOriginSession } from './provenance.js';

/**
 * Edits of an existing memory's frontmatter in the shape chosen in Settings, keeping every other key,
 * comment and the body as written. The metadata shape follows what the newest Claude Code does to each
 * memory file it writes (docs/claude-code-parity.md#the-memory-file-shapes): `type` lives under
 * `metadata`, and `metadata.modified` is the time of the last write.
 */

/** YAML text as one-line scalars (no folding: Claude Code's fallback reads `key: value` lines). */
const render = (doc: Document): string => doc.toString({ lineWidth: 0, minContentWidth: 0 }).replace(/\n*$/, '\n');

/**
 * The file with `edit` applied to its frontmatter mapping; unchanged when it has none YAML can edit.
 * `metadata()` gives the `metadata` mapping (made when missing), or null when `metadata` holds something
 * else, which is never written over.
 */
function editFrontmatter(text: string, edit: (doc: Document, metadata: () => YAMLMap | null) => void): string {
  return tryEditFrontmatter(text, edit) ?? text;
}

function tryEditFrontmatter(text: string, edit: (doc: Document, metadata: () => YAMLMap | null) => void): string | null {
  const block = splitFrontmatter(text);
  const doc = parseDocument(block ? block.yaml : '', { logLevel: 'silent' });
  if (doc.errors.length > 0 || (doc.contents !== null && !isMap(doc.contents))) return null;
  const metadata = (): YAMLMap | null => {
    const found = doc.get('metadata');
    if (isMap(found)) return found;
    if (found !== undefined && found !== null) return null;
    const made = doc.createNode({}) as YAMLMap;
    doc.set('metadata', made);
    return made;
  };
  edit(doc, metadata);
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const body = block ? block.body : text.replace(/^\uFEFF/, '');
  return `${bom}---\n${render(doc)}---\n${body}`;
}

/**
 * The file with its frontmatter `name` set to `name`, every other key, comment and the body kept; a
 * name written over several lines (`>`, `|`, a quoted string) is replaced whole. Null when the file
 * has no frontmatter YAML can edit.
 */
export function withFrontmatterName(text: string, name: string): string | null {
  if (!splitFrontmatter(text)) return null;
  // A new node, so the name is one line again rather than keeping a block style the old one had.
  return tryEditFrontmatter(text, (doc) => void doc.set('name', doc.createNode(name)));
}

/**
 * The name, description and type as the memory form shows them: raw (not trimmed, so a field being typed
 * keeps its spaces), the type from the top level or else from `metadata` (either shape), missing ones
 * empty; null when the frontmatter gives no fields.
 */
export function readMemoryHead(text: string): { name: string; description: string; type: string } | null {
  const block = splitFrontmatter(text);
  if (!block) return null;
  const parsed = parseFrontmatterYaml(block.yaml);
  if ('error' in parsed) return null;
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  const metadata = parsed.data.metadata;
  const nested = metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? (metadata as Record<string, unknown>).type : undefined;
  return { name: str(parsed.data.name), description: str(parsed.data.description), type: str(parsed.data.type ?? nested) };
}

/** The three fields a person reads a memory by; the resolver and the memory form show them as fields, not YAML. */
export type MemoryHeadField = 'name' | 'description' | 'type';

/**
 * The file with some of name, description and type set, every other key, comment and the body kept; the
 * type stays where it was written (under `metadata` when only `metadata.type` holds it). Null when the
 * file has no frontmatter YAML can edit.
 */
export function withHeadFields(text: string, fields: Partial<Record<MemoryHeadField, string>>): string | null {
  if (!splitFrontmatter(text)) return null;
  return tryEditFrontmatter(text, (doc) => {
    for (const key of ['name', 'description'] as const) if (fields[key] !== undefined) doc.set(key, doc.createNode(fields[key]));
    if (fields.type === undefined) return;
    const nested = doc.get('metadata');
    if (!doc.has('type') && isMap(nested) && nested.has('type')) nested.set('type', fields.type);
    else doc.set('type', fields.type);
  });
}

/** `type` moved under `metadata` (after `node_type`, as the newest Claude Code orders it); false when `metadata` is not a mapping. */
function typeIntoMetadata(doc: Document, map: YAMLMap | null, type: unknown): map is YAMLMap {
  if (!map) return false;
  doc.delete('type');
  if (!map.has('node_type')) map.items.unshift(doc.createPair('node_type', 'memory'));
  if (type !== undefined && type !== null) map.set('type', type);
  return true;
}

/**
 * The name, description and type the user set in the memory form, written in the chosen shape: the
 * 2.1.88 shape keeps `type` at the top (and drops a `metadata.type` it would contradict); the metadata
 * shape moves it under `metadata` and dates the edit (`modified`). The name is kept as typed.
 */
export function withMemoryHead(text: string, head: { name: string; description: string; type: string }, shape: MemoryShape, modified: string): string {
  return editFrontmatter(text, (doc, metadata) => {
    doc.set('name', head.name);
    doc.set('description', head.description);
    const wanted = shape === 'metadata' ? metadata() : null;
    if (typeIntoMetadata(doc, wanted, head.type)) {
      wanted.set('modified', modified);
      return;
    }
    // The 2.1.88 shape, or a `metadata` that is not a mapping (kept as written): the type at the top.
    doc.set('type', head.type);
    const nested = doc.get('metadata');
    if (isMap(nested)) {
      nested.delete('type');
      if (nested.items.length === 0) doc.delete('metadata');
    }
  });
}

/**
 * What a memory write by the agent looks like on disk in the chosen shape. 2.1.88 shape: a new memory
 * gets `originSessionId` (stampOriginSession), nothing else is touched. Metadata shape, as the newest
 * Claude Code stamps every memory it writes: a memory without `originSessionId` is put in the new shape
 * (kebab-case `name`, `metadata: {node_type, type, originSessionId, modified}`); one that has it keeps
 * its shape and only gets `modified` next to it. Text without frontmatter is never changed.
 */
export function stampMemoryWrite(text: string, o: { sessionId: string; shape: MemoryShape; modified: string; isNew: boolean }): string {
  if (o.shape !== 'metadata') return o.isNew ? stampOriginSession(text, o.sessionId) : text;
  const parsed = parseMemoryFile(text);
  if (!parsed.hasFrontmatter || parsed.frontmatterError) return text;
  // A `metadata` that is not a mapping is left as written, and so is the whole file.
  if (parsed.data.metadata !== undefined && parsed.data.metadata !== null && (typeof parsed.data.metadata !== 'object' || Array.isArray(parsed.data.metadata))) return text;
  return editFrontmatter(text, (doc, metadata) => {
    if (parsed.originSessionId) {
      (doc.has('originSessionId') ? doc : metadata()!).set('modified', o.modified);
      return;
    }
    const name = doc.get('name');
    if (typeof name === 'string') doc.set('name', kebabName(name));
    const map = metadata()!;
    typeIntoMetadata(doc, map, doc.has('type') ? doc.get('type') : undefined);
    map.set('originSessionId', o.sessionId);
    map.set('modified', o.modified);
  });
}
