import { parseMemoryFile, splitFrontmatter } from './frontmatter.js';
import { yamlScalar } from './write.js';

/**
 * Records the conversation that wrote a new memory, as the newest Claude Code does
 * (`originSessionId`). It goes in as a top-level key, which 2.1.88 ignores and the newest reads into
 * `metadata` like any extra key, so it suits both shapes. Text without readable frontmatter, or
 * already stamped, is returned unchanged (the model's text is never rewritten beyond this line).
 */
export function stampOriginSession(text: string, sessionId: string): string {
  const parsed = parseMemoryFile(text);
  if (!parsed.hasFrontmatter || parsed.frontmatterError || parsed.originSessionId) return text;
  const block = splitFrontmatter(text);
  if (!block) return text;
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  const eol = /^\uFEFF?---[^\n]*\r\n/.test(text) ? '\r\n' : '\n';
  const yaml = block.yaml.replace(/\n*$/, '');
  const lines = [...(yaml ? yaml.split('\n') : []), `originSessionId: ${yamlScalar(sessionId)}`];
  return `${bom}---${eol}${lines.join(eol)}${eol}---${eol}${block.body}`;
}

/**
 * Where the `originSessionId:` line of a memory's frontmatter is (top level, or under `metadata:` in the
 * newest shape), as [from, to) offsets of the whole line with its line break; null when it has none.
 * What the user reads shows it as a link to the conversation beside the file, never as the raw id.
 */
export function originLineRange(text: string): [number, number] | null {
  const block = /^\uFEFF?---[^\n]*\n([\s\S]*?)\n---[^\n]*(?:\n|$)/.exec(text);
  if (!block) return null;
  const start = text.indexOf(block[1]!);
  const line = /^[ \t]*originSessionId:[^\n]*(?:\n|$)/m.exec(block[1]!);
  if (!line) return null;
  // The block's last line: its line break is the one before it.
  const from = start + line.index - (line[0].endsWith('\n') || line.index === 0 ? 0 : 1);
  return [from, start + line.index + line[0].length];
}

/** The text without its `originSessionId:` line, for a read-only view (the Inbox, History). */
export function withoutOriginLine(text: string): string {
  const at = originLineRange(text);
  return at ? text.slice(0, at[0]) + text.slice(at[1]) : text;
}
