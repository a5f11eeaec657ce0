import { isDocumentedExample, isPlaceholder, shannonEntropy } from './false-positives.js';
import { secretRules } from './rules.js';
import type { Finding, ScanOptions, SecretRule } from './secret-rule.js';

/** A rule with its regex compiled once more with match indices, so the secret's own position is known. */
interface CompiledRule {
  rule: SecretRule;
  regex: RegExp;
}

const compiled: CompiledRule[] = secretRules.map((rule) => ({
  rule,
  regex: new RegExp(rule.regex.source, rule.regex.flags.includes('d') ? rule.regex.flags : `${rule.regex.flags}d`),
}));

interface RawFinding {
  rule: SecretRule;
  start: number;
  end: number;
}

/** Which rules can fire at all: one pass of `includes` per distinct keyword over the lower-cased text. */
function candidateRules(text: string, only: ReadonlySet<string> | undefined): CompiledRule[] {
  const lower = text.toLowerCase();
  const seen = new Map<string, boolean>();
  const present = (keyword: string): boolean => {
    let hit = seen.get(keyword);
    if (hit === undefined) {
      hit = lower.includes(keyword);
      seen.set(keyword, hit);
    }
    return hit;
  };
  return compiled.filter(
    ({ rule }) => (!only || only.has(rule.id)) && (rule.keywords.length === 0 || rule.keywords.some(present)),
  );
}

function accepts(rule: SecretRule, secret: string, whole: string, groups: Record<string, string | undefined>, text: string, index: number): boolean {
  if (rule.entropy !== undefined && shannonEntropy(secret) < rule.entropy) return false;
  if (isPlaceholder(secret) || isDocumentedExample(whole, secret)) return false;
  if (rule.allowlist?.some((pattern) => pattern.test(secret))) return false;
  return rule.check ? rule.check({ secret, groups, text, index }) : true;
}

function runRule({ rule, regex }: CompiledRule, text: string, out: RawFinding[]): void {
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const groups = m.groups ?? {};
    const secret = groups.secret ?? m[0];
    const whole: [number, number] = [m.index, m.index + m[0].length];
    const span = rule.reportMatchStart ? whole : (m.indices?.groups?.secret ?? whole);
    if (accepts(rule, secret, m[0], groups, text, m.index)) {
      out.push({ rule, start: span[0], end: span[1] });
    } else {
      // A rejected match may hide a real one that starts inside it.
      regex.lastIndex = m.index + 1;
    }
  }
}

/** Maps offsets to 1-based line and column; the table of line starts is built only when needed. */
function positioner(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

/**
 * Scans text for secrets. Returns one finding per detected value — rule id and 1-based line and
 * column, sorted by position — and never the value itself.
 */
export function scanText(text: string, options: ScanOptions = {}): Finding[] {
  const only = options.rules ? new Set(options.rules) : undefined;
  const raw: RawFinding[] = [];
  for (const candidate of candidateRules(text, only)) runRule(candidate, text, raw);
  if (raw.length === 0) return [];

  // A catch-all rule adds nothing where a specific rule already found the same value.
  const specific = raw.filter((f) => !f.rule.generic);
  const kept = raw.filter((f) => !f.rule.generic || !specific.some((s) => s.start < f.end && f.start < s.end));

  const position = positioner(text);
  const lineOffset = options.lineOffset ?? 0;
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const f of kept.sort((a, b) => a.start - b.start)) {
    const { line, column } = position(f.start);
    const key = `${f.rule.id}:${line}:${column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push({ rule: f.rule.id, line: line + lineOffset, column });
  }
  return findings;
}
