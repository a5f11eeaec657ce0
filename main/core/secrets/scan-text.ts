import { isDocumentedExample, isPlaceholder, shannonEntropy } from './false-positives.js';
import { secretRules } from './rules.js';
import { triePattern } from './keyword-trie.js';
import { countLines, overlapStart, segmentEnd } from './segments.js';
import type { Finding, ScanOptions, SecretRule } from './secret-rule.js';

/** A rule with its regex compiled once more with match indices, so the secret's own position is known. */
interface CompiledRule {
  rule: SecretRule;
  regex: RegExp;
}

interface RawFinding {
  rule: SecretRule;
  start: number;
  end: number;
  value: string;
}

// The prefilter: one case-insensitive pattern of every keyword, factored as a trie, the longest keyword
// winning at a position. A match also stands for every keyword it contains (`sk-ant-api03-` implies
// `sk-`), and the search resumes one character later so keywords that overlap are all seen. One pass
// instead of one `includes` per keyword keeps the scan at tens of MB/s.
interface Compiled {
  rules: CompiledRule[];
  keywordRegex: RegExp;
  impliedKeywords: Map<string, string[]>;
}

// Built on the first scan, not at import: `strata scan-secrets` and the app start without paying for it.
let built: Compiled | undefined;
function compiledRules(): Compiled {
  if (built) return built;
  const allKeywords = [...new Set(secretRules.flatMap((r) => r.keywords))];
  built = {
    rules: secretRules.map((rule) => ({
      rule,
      regex: new RegExp(rule.regex.source, rule.regex.flags.includes('d') ? rule.regex.flags : `${rule.regex.flags}d`),
    })),
    keywordRegex: new RegExp(triePattern(allKeywords), 'gi'),
    impliedKeywords: new Map(allKeywords.map((k) => [k, allKeywords.filter((other) => k.includes(other))])),
  };
  return built;
}

function keywordsIn(text: string): Set<string> {
  const { keywordRegex, impliedKeywords } = compiledRules();
  const found = new Set<string>();
  keywordRegex.lastIndex = 0;
  for (let m = keywordRegex.exec(text); m !== null; m = keywordRegex.exec(text)) {
    const keyword = m[0].toLowerCase();
    if (!found.has(keyword)) for (const k of impliedKeywords.get(keyword) ?? [keyword]) found.add(k);
    keywordRegex.lastIndex = m.index + 1;
  }
  return found;
}

/** Which rules can fire at all: those without keywords, and those with one present in the text. */
function candidateRules(text: string, only: ReadonlySet<string> | undefined): CompiledRule[] {
  const found = keywordsIn(text);
  return compiledRules().rules.filter(
    ({ rule }) => (!only || only.has(rule.id)) && (rule.keywords.length === 0 || rule.keywords.some((k) => found.has(k))),
  );
}

function accepts(rule: SecretRule, secret: string, whole: string, groups: Record<string, string | undefined>, text: string, index: number): boolean {
  if (isDocumentedExample(whole, secret)) return false;
  if (rule.certain?.(secret)) return rule.check ? rule.check({ secret, groups, text, index }) : true;
  if (rule.entropy !== undefined && shannonEntropy(secret) < rule.entropy) return false;
  if (isPlaceholder(secret)) return false;
  if (rule.allowlist?.some((pattern) => pattern.test(secret))) return false;
  return rule.check ? rule.check({ secret, groups, text, index }) : true;
}

/** Where a multi-line value that matched up to `from` ends (`from` for a one-line rule). */
function blockEnd(rule: SecretRule, text: string, from: number): number {
  if (!rule.blockRest) return from;
  rule.blockRest.lastIndex = from;
  return rule.blockRest.exec(text) ? rule.blockRest.lastIndex : from;
}

function runRule({ rule, regex }: CompiledRule, text: string, out: RawFinding[]): void {
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const groups = m.groups ?? {};
    const secret = groups.secret ?? m[0];
    const whole: [number, number] = [m.index, m.index + m[0].length];
    const span = rule.reportMatchStart ? whole : (m.indices?.groups?.secret ?? whole);
    if (accepts(rule, secret, m[0], groups, text, m.index)) {
      out.push({ rule, start: span[0], end: Math.max(span[1], blockEnd(rule, text, whole[1])), value: secret });
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

function scanSegment(text: string, only: ReadonlySet<string> | undefined, lineOffset: number, charOffset: number, options: ScanOptions): Finding[] {
  const raw: RawFinding[] = [];
  for (const candidate of candidateRules(text, only)) runRule(candidate, text, raw);
  if (raw.length === 0) return [];

  // A catch-all rule adds nothing where a specific rule already found the same value.
  const specific = raw.filter((f) => !f.rule.generic);
  // Two catch-alls on one value (`--password=…` is both a keyed password and a CLI argument) report it once.
  const overlaps = (a: RawFinding, b: RawFinding) => a.start < b.end && b.start < a.end;
  const generic: RawFinding[] = [];
  for (const f of raw) if (f.rule.generic && !specific.some((s) => overlaps(s, f)) && !generic.some((g) => overlaps(g, f))) generic.push(f);
  const kept = [...specific, ...generic].filter((f) => !options.allowed?.(f.rule.id, f.value));

  const position = positioner(text);
  return kept
    .sort((a, b) => a.start - b.start)
    .map((f) => {
      const { line, column } = position(f.start);
      const finding: Finding = { rule: f.rule.id, line: line + lineOffset, column };
      if (options.fingerprint) finding.fingerprint = options.fingerprint(f.rule.id, f.value);
      if (options.spans) finding.span = [charOffset + f.start, charOffset + f.end];
      return finding;
    });
}

// Long text is scanned in line-aligned segments: the keyword prefilter then activates only the rules
// whose keywords occur near each other, instead of every rule over the whole text.
const segmentChars = 16 * 1024;

/**
 * Scans text for secrets. Returns one finding per detected value — rule id and 1-based line and
 * column, sorted by position — and never the value itself.
 */
export function scanText(text: string, options: ScanOptions = {}): Finding[] {
  const only = options.rules ? new Set(options.rules) : undefined;
  const lineOffset = options.lineOffset ?? 0;
  if (text.length <= segmentChars * 2) return dedupe(scanSegment(text, only, lineOffset, 0, options));
  const all: Finding[] = [];
  let start = 0;
  let line = lineOffset;
  for (;;) {
    const end = segmentEnd(text, start, segmentChars);
    all.push(...scanSegment(text.slice(start, end), only, line, start, options));
    if (end >= text.length) break;
    const next = overlapStart(text, end, start);
    line += countLines(text.slice(start, next), next - start);
    start = next;
  }
  return dedupe(all);
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const f of findings) {
    const key = `${f.rule}:${f.line}:${f.column}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
}
