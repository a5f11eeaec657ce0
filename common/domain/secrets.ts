/** One "Not a secret" entry as Settings lists it: the rule and where it was marked, never the value or its hash. */
export interface SecretAllowanceView {
  id: string;
  rule: string;
  /** As recorded: `<action>: <path>` (`memory write: /…/memory/user_x.md`). */
  where: string;
  /** The same place as the user knows it, worked out by main; null when `where` names no file. */
  place: AllowancePlace | null;
  createdAt: string;
}

export interface AllowancePlace {
  /** What was being done: `memory write`, `team push`, `memory import`. */
  action: string;
  /** The memory's name (its frontmatter `name`, else one read from the file name). */
  memory: string;
  /** The project's name, when the file is in one. */
  project: string | null;
  /** The file's path, for a tooltip only. */
  path: string;
}

/**
 * How a refused memory write names a finding the user may mark "Not a secret": `[finding RULE FINGERPRINT]`,
 * a rule id and the keyed hash of the value (main/core/secrets/allowances.ts). Written by main, read by the
 * chat card; it never carries the value.
 */
export function formatFindingRef(rule: string, fingerprint: string): string {
  return `[finding ${rule} ${fingerprint}]`;
}

export function parseFindingRefs(text: string): { rule: string; fingerprint: string }[] {
  const seen = new Set<string>();
  const out: { rule: string; fingerprint: string }[] = [];
  for (const m of text.matchAll(/\[finding ([a-z0-9-]{1,64}) ([a-f0-9]{64})\]/g)) {
    if (seen.has(m[2]!)) continue;
    seen.add(m[2]!);
    out.push({ rule: m[1]!, fingerprint: m[2]! });
  }
  return out;
}
