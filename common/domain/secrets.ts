/** One "Not a secret" entry as Settings lists it: the rule and where it was marked, never the value or its hash. */
export interface SecretAllowanceView {
  id: string;
  rule: string;
  where: string;
  createdAt: string;
}
