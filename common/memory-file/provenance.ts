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
