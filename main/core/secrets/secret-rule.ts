/**
 * The shapes shared by the rules table, the text scanner and the file scanner. A finding names a rule
 * and a position, never the matched value: findings travel into model prompts, logs and CLI output.
 */

/** The credential family a rule belongs to; recall is measured per family. */
export type SecretFamily =
  | 'cloud'
  | 'ai'
  | 'vcs'
  | 'chat'
  | 'payments'
  | 'registry'
  | 'observability'
  | 'dev-tooling'
  | 'private-key'
  | 'jwt'
  | 'connection-string'
  | 'generic';

/** What a rule's `check` sees about one match; `secret` is the part the entropy and placeholder tests apply to. */
export interface RuleMatch {
  secret: string;
  /** Named groups of the match (`key` for context-keyed rules). */
  groups: Record<string, string | undefined>;
  text: string;
  /** Offset of the whole match in `text`. */
  index: number;
}

/**
 * One row of the rules table (after gitleaks' `[[rules]]`): the regex must be global, must use only
 * bounded quantifiers (no catastrophic backtracking on a long line), and captures the value as the named
 * group `secret` (else the whole match).
 */
export interface SecretRule {
  id: string;
  family: SecretFamily;
  description: string;
  regex: RegExp;
  /** Lower-case substrings one of which must occur in the text for the regex to run at all (fast prefilter); empty = always run. */
  keywords: string[];
  /** Minimum Shannon entropy (bits per character) of the secret. */
  entropy?: number;
  /** Patterns that, matching the secret, mark it as a known non-secret (documented example, placeholder shape). */
  allowlist?: RegExp[];
  /** Structure that proves the value real (a checksum, a parseable macaroon): skips the entropy and placeholder tests. */
  certain?: (secret: string) => boolean;
  /** Extra validation (a JWT header that decodes to JSON, a Discord id that decodes to digits). */
  check?: (match: RuleMatch) => boolean;
  /** Report the line where the match starts (a PEM header) rather than where the secret starts (its body). */
  reportMatchStart?: boolean;
  /**
   * A sticky pattern for the rest of a multi-line value after the match (a PEM block's other lines and
   * its END line): the span runs on over it, so redaction blanks the whole block, not its first line.
   */
  blockRest?: RegExp;
  /** Context-keyed catch-all rules: dropped where a specific rule found the same value. */
  generic?: boolean;
}

/** One detected secret: the rule that fired and where, 1-based. Never the value. */
export interface Finding {
  rule: string;
  line: number;
  column?: number;
  /** A keyed hash of the value (see allowances.ts), present when the scan was asked for one: what "Not a secret" records. */
  fingerprint?: string;
  /** Where the value sits in the scanned text (UTF-16 offsets, end exclusive), when asked for: what redaction replaces. */
  span?: [number, number];
}

/** Options for `scanText`. */
export interface ScanOptions {
  /** Only these rule ids run (default: all). */
  rules?: readonly string[];
  /** Added to every reported line (used when scanning a file in chunks). */
  lineOffset?: number;
  /** The user's "Not a secret" list: a finding whose rule and value it allows is dropped. */
  allowed?: (rule: string, value: string) => boolean;
  /** Adds a fingerprint of the value to each finding (never the value itself). */
  fingerprint?: (rule: string, value: string) => string;
  /** Adds each value's offsets in the text (`span`), so a caller can blank it out without seeing it. */
  spans?: boolean;
}
