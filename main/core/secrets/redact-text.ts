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
