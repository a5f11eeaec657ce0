import type { SecretRule } from './secret-rule.js';

/**
 * The building blocks of the rules tables: how code and config assign a value to a name, and a vendor
 * prefix standing on its own. Every quantifier is bounded so a hostile 1 MB line costs linear time.
 */


// `KEY = value`, `"key": "value"`, `key: value`, `KEY=value`, `| key | value |`, `-H "Key: value"`, and the
// other ways code and config assign: Makefile `:::=`/`?=`, PHP `.=`, a typed declaration (`var x string =`,
// `let x: &str =`, `const string X =`), a setter call (`setProperty("KEY", "…")`, `define('KEY', '…')`),
// .NET `key="KEY" value="…"`, a Kubernetes `env` entry (`- name: KEY` then `value: …`) and an XML
// element whose value may sit on its own line (`<apiToken>` newline value).
const operator = `(?:=|:=|::=|:::=|\\.=|\\+=|:|=>|\\?=|\\|)`;
// The type name is matched atomically (lookahead + backreference), so a keyword in prose followed by a
// word (`the key rotation`) costs one attempt, not one per prefix of that word.
const typeAnnotation = `(?:[ \\t]{0,2}:)?[ \\t]{1,4}[&*]?(?=(?<type>[A-Za-z][\\w.]{0,24}))\\k<type>(?:\\[\\])?[ \\t]{0,4}(?:=|:=)`;
const assignment =
  `(?:["'\`]?\\]?[ \\t]{0,4}${operator}|${typeAnnotation}|["'][ \\t]{0,4},[ \\t]{0,4}["']value["'][ \\t]{0,4}:|["'][ \\t]{0,4},|["'][ \\t]{1,4}value[ \\t]{0,2}=|["']?[ \\t]{0,4}\\r?\\n[ \\t]{0,16}value:|>[ \\t]{0,4}(?:\\r?\\n[ \\t]{0,16})?)[ \\t]{0,4}["'\`]?`;
export const after = `(?![\\w+/=-])`;

export function keyed(context: string, value: string, end = after): RegExp {
  return new RegExp(`(?<key>${context})(?<suffix>[\\w.-]{0,24}?)${assignment}(?<secret>${value})${end}`, 'gi');
}

export function prefixed(body: string, flags = 'g'): RegExp {
  return new RegExp(`\\b(?<secret>${body})${after}`, flags);
}

/** A rules-table row as written; `keywords` defaults to none (the rule always runs). */
export type Row = Omit<SecretRule, 'regex' | 'keywords'> & { regex: RegExp; keywords?: string[] };
