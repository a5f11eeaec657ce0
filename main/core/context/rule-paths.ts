import path from 'node:path';
import picomatch from 'picomatch';
import { parse } from 'yaml';

/**
 * `paths:` frontmatter of a rules file (docs/claude-code-parity.md): such a rule applies only to
 * matching files and is attached when the agent reads one, not loaded at the start. Patterns are a
 * list or a comma-separated string (commas inside `{…}` stay); a trailing `/**` is dropped; patterns
 * that are all `**` mean "everything", i.e. no condition.
 */
export function rulePaths(raw: string): string[] | null {
  const match = /^\ufeff?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(raw);
  if (!match) return null;
  let value: unknown;
  try {
    value = (parse(match[1]!) as { paths?: unknown } | null)?.paths;
  } catch {
    return null;
  }
  const patterns = splitPatterns(value)
    .map((p) => (p.endsWith('/**') ? p.slice(0, -3) : p))
    .filter((p) => p !== '');
  if (patterns.length === 0 || patterns.every((p) => p === '**')) return null;
  return patterns;
}

function splitPatterns(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(splitPatterns);
  if (typeof value !== 'string') return [];
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Whether `file` (absolute) matches one of the patterns, taken relative to `baseDir` with gitignore
 * meaning, as Claude Code matches them: a pattern without a slash matches a name at any depth, and a
 * pattern matching a folder matches everything inside it. Files outside `baseDir` never match.
 */
export function matchesRulePaths(patterns: readonly string[], baseDir: string, file: string): boolean {
  const rel = path.relative(baseDir, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  const parts = rel.split(path.sep);
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  return patterns.some((raw) => {
    const anchored = raw.replace(/\/$/, '').includes('/');
    const pattern = raw.replace(/^\//, '').replace(/\/$/, '');
    const isMatch = picomatch(pattern, { dot: true, basename: !anchored });
    return prefixes.some((p) => isMatch(p));
  });
}
