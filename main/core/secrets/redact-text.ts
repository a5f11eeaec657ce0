import type { Finding } from './secret-rule.js';

/**
 * What stands where a secret was: says what happened, so neither the model nor the user mistakes it for
 * the value. One word, so a rule that takes it for a value takes all of it, and the placeholder check
 * ("removed") keeps it from being found again.
 */
export const REDACTED_SECRET = '[secret-removed]';

/**
 * `text` with every finding's value replaced by REDACTED_SECRET. The findings must come from a scan of
 * this same text with `spans: true`; overlapping spans are blanked once.
 */
export function redactFindings(text: string, findings: readonly Finding[]): string {
  const spans = findings.flatMap((f) => (f.span ? [f.span] : [])).sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (end <= at) continue;
    out += text.slice(at, Math.max(at, start)) + (start >= at ? REDACTED_SECRET : '');
    at = end;
  }
  return out + text.slice(at);
}

/**
 * The distinct values a scan of `text` (asked for spans) found, longest first: replaced one by one,
 * a value holding a shorter one is blanked whole. For blanking them where else they appear.
 */
export function secretValues(text: string, findings: readonly { span?: [number, number] | undefined }[]): string[] {
  const values = findings.flatMap((f) => (f.span ? [text.slice(f.span[0], f.span[1])] : [])).filter((v) => v !== '');
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/** `text` with each of `values` replaced by REDACTED_SECRET wherever it appears. */
export function redactValues(text: string, values: readonly string[]): string {
  return values.reduce((out, value) => out.split(value).join(REDACTED_SECRET), text);
}
