import { memoryTypes, type MemoryShape } from './memory-types.js';
import { fieldText, parseMemoryFile, splitFrontmatter } from './frontmatter.js';
import { renderFrontmatter, yamlScalar } from './write.js';

/** "feedback_tabs-always.md" → "tabs always": a readable name from a file name. */
export function nameFromFileName(fileName: string): string {
  const base = fileName.split('/').at(-1)!.replace(/\.md$/i, '');
  const words = base.replace(new RegExp(`^(?:${memoryTypes.join('|')})[_-]`), '').replace(/[_-]+/g, ' ').trim();
  return words || base;
}

/** The type a file name announces (`feedback_tabs.md`), as Claude Code's examples name them. */
const typeFromFileName = (fileName: string): string | null =>
  memoryTypes.find((t) => fileName.split('/').at(-1)!.startsWith(`${t}_`)) ?? null;

/** The body's first line of prose, as a description when the memory has none. */
function firstLine(body: string): string | null {
  for (const raw of body.split('\n')) {
    const line = raw.replace(/^\s*(?:#+|[-*+>]|\d+[.)])\s*/, '').replace(/[*_`]/g, '').trim();
    if (line && line !== '---') return line.length > 150 ? `${line.slice(0, 149)}…` : line;
  }
  return null;
}

/** `key: value` lines of a block YAML refused, read one by one (first value wins, quotes dropped). */
function salvage(yaml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of yaml.split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!m || Object.hasOwn(out, m[1]!)) continue;
    out[m[1]!] = m[2]!.replace(/^(["'])([\s\S]*)\1$/, '$2');
  }
  return out;
}

/**
 * Health's one-click fix for a memory's frontmatter, or null when there is nothing to repair. A memory
 * without any gets one (name from its file name, description from its first line); one whose YAML
 * nothing can read is rewritten from the `key: value` lines that can be salvaged; one lacking a name or
 * description gets the missing line, everything else kept as written. The result reads without error.
 * A rebuilt block is in the shape chosen in Settings (the metadata shape dated `modified`).
 */
export function repairMemoryText(text: string, fileName: string, shape: MemoryShape = '2.1.88', modified: string | null = null): string | null {
  const parsed = parseMemoryFile(text);
  const fallbackName = nameFromFileName(fileName);
  if (!parsed.hasFrontmatter || parsed.frontmatterError) {
    const block = parsed.hasFrontmatter ? splitFrontmatter(text) : null;
    const old = block ? salvage(block.yaml) : {};
    const body = block ? block.body : parsed.body;
    const name = fieldText(old.name) ?? fallbackName;
    const head = {
      name,
      description: fieldText(old.description) ?? firstLine(body) ?? name,
      type: fieldText(old.type) ?? typeFromFileName(fileName) ?? 'project',
      originSessionId: fieldText(old.originSessionId),
      modified,
    };
    return `${renderFrontmatter(head, shape)}${body.startsWith('\n') ? '' : '\n'}${body}`;
  }
  const missing: [string, string][] = [];
  if (!parsed.name) missing.push(['name', fallbackName]);
  if (!parsed.description) missing.push(['description', firstLine(parsed.body) ?? parsed.name ?? fallbackName]);
  if (missing.length === 0) return null;
  const block = splitFrontmatter(text)!;
  let yaml = block.yaml;
  for (const [key, value] of missing) {
    const line = `${key}: ${yamlScalar(value)}`;
    const empty = new RegExp(`^${key}:[ \\t]*(?:null|~)?[ \\t]*$`, 'm');
    yaml = empty.test(yaml) ? yaml.replace(empty, line) : `${line}\n${yaml}`;
  }
  return `---\n${yaml.replace(/\n?$/, '\n')}---\n${block.body}`;
}
