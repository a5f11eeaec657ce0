import { useEffect, useState } from 'react';
import { ruleKinds } from '../../bridge/secrets-actions';

/**
 * Each scanner rule's kind of secret in words, by rule id, for what the user reads: a finding is named by
 * its kind ("a GitHub personal access token"), never by the rule's id (docs/security.md#secrets-scanning).
 */
export function useRuleKinds(): Record<string, string> {
  const [kinds, setKinds] = useState<Record<string, string>>({});
  useEffect(() => {
    let live = true;
    void ruleKinds().then((k) => live && setKinds(k));
    return () => {
      live = false;
    };
  }, []);
  return kinds;
}
