/**
 * False-positive controls shared by every rule: entropy, placeholders and templates, redacted and
 * repeated bodies, and keys that vendors publish in their documentation.
 */

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

// Words that mark a value as a stand-in, not a credential. Checked case-insensitively on the secret
// only (never the fixed prefix, so `sk_test_` is not a placeholder by itself).
const placeholderWords =
  /example|sample|dummy|placeholder|changeme|change_me|change-me|your[_-]?(?:api[_-]?)?(?:key|token|secret|password)|yourkey|insert|replace[_-]?me|redacted|removed|hidden|masked|censored|notreal|not[_-]real|fake|todo|fixme|<[^>]*>|\{\{|\}\}|\$\{|\$\(|%\(|%s\b|\.\.\.|…|\*{3,}|x{4,}|#{4,}|0{8,}|•|deadbeef|d3adb33f|cafebabe|cafeb4b3|feedface|badc0ffee/i;

// Runs of one character or of an ascending sequence (abcdef, 123456) are typed by hand, not generated;
// so is a value made mostly of short ascending runs (`abc123def456`). Case is ignored: `aBcDeFgHiJ` is
// the alphabet typed with the shift key alternating.
function hasHandTypedRun(typed: string): boolean {
  const value = typed.toLowerCase();
  let same = 1;
  let ascending = 1;
  let inShortRuns = 0;
  for (let i = 1; i < value.length; i++) {
    const prev = value.charCodeAt(i - 1);
    const cur = value.charCodeAt(i);
    same = cur === prev ? same + 1 : 1;
    ascending = cur === prev + 1 ? ascending + 1 : 1;
    if (same >= 6 || ascending >= 6) return true;
    if (ascending === 3) inShortRuns += 3;
    else if (ascending > 3) inShortRuns++;
  }
  return value.length >= 8 && inShortRuns >= 0.75 * value.length;
}

// A short unit typed again and again (`a1b2c3d4e5f6a1b2c3d4…`, `qKirRWalryBGqKirRWalryBG`).
function isRepeatedUnit(value: string, distinct: number): boolean {
  // A unit holds every distinct character of the value, so shorter units cannot repeat.
  for (let unit = Math.max(2, distinct); unit <= 16 && unit * 2 <= value.length; unit++) {
    let same = 0;
    for (let i = unit; i < value.length; i++) if (value[i] === value[i - unit]) same++;
    if (same >= 0.9 * (value.length - unit) && value.length >= Math.max(12, unit * 2)) return true;
  }
  return false;
}

/** True when the value looks like a template, placeholder, redaction or hand-typed filler. */
export function isPlaceholder(value: string): boolean {
  if (placeholderWords.test(value)) return true;
  const distinct = new Set(value).size;
  if (hasHandTypedRun(value) || isRepeatedUnit(value, distinct)) return true;
  // Very few distinct characters for the length: `abababab…`, `a1a1a1…`. Capped so a long hex key (16
  // symbols at most) is not mistaken for filler.
  return value.length >= 12 && distinct <= Math.max(3, Math.min(8, value.length / 8));
}

// Keys published in vendor documentation (AWS IAM guide, Stripe API reference, jwt.io's default
// token signature). Assembled from parts so no complete key literal sits in the bundle or the repo.
const documentedExamples = new Set<string>([
  ['AKIAIOSFODNN7', 'EXAMPLE'].join(''),
  ['wJalrXUtnFEMI/K7MDENG/bPxRfiCY', 'EXAMPLEKEY'].join(''),
  ['sk', 'test', '4eC39HqLyjWDarjtT1zdp7dc'].join('_'),
  ['sk', 'test', 'BQokikJOvBiI2HlWgH4olfQ2'].join('_'),
  ['SflKxwRJSMeKKF2QT4fwpMeJf36', 'POk6yJV_adQssw5c'].join(''),
]);

// Google's Firebase SDKs ship these API keys in their own tests and samples; they are public on purpose.
const firebaseSampleKeys = new Set(
  [
    'SyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs', 'SyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM', 'SyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU', 'SyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
    'yDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A', 'SyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c', 'SyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4', 'SyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY',
    'SyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM', 'SyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ', 'SyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g', 'SyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU',
    'SyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw', 'SyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE', 'SyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY',
  ].map((rest) => `AIza${rest}`),
);
// The AWS guide's example secret key, and the variants docs make of it (`…CYSECRETSKEY`).
const awsExampleSecretStart = ['wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCY'].join('');

/** True when the whole match or its secret is a key vendors publish as an example. */
export function isDocumentedExample(match: string, secret: string): boolean {
  if (documentedExamples.has(secret) || firebaseSampleKeys.has(secret) || secret.startsWith(awsExampleSecretStart)) return true;
  for (const example of documentedExamples) if (match.includes(example)) return true;
  return false;
}

/** Character classes present (lower, upper, digit, other), for word-vs-credential tests. */
export function characterClasses(value: string): number {
  let lower = 0;
  let upper = 0;
  let digit = 0;
  let other = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 97 && c <= 122) lower = 1;
    else if (c >= 65 && c <= 90) upper = 1;
    else if (c >= 48 && c <= 57) digit = 1;
    else other = 1;
  }
  return lower + upper + digit + other;
}
