import { characterClasses, shannonEntropy } from './false-positives.js';
import type { RuleMatch } from './secret-rule.js';

/**
 * Checks for the context-keyed rules (`password = …`, `api_key: …`) and for URLs with a password,
 * where the value has no fixed shape and the key name and the value's texture decide.
 */

// The identifier ends in a word that says the value is about a secret, not the secret itself.
const nonSecretKey =
  /(?:^|[_.-])(?:url|uri|endpoint|host|file|path|dir|name|type|length|len|size|expiry|expires?|expires?_?(?:at|in)|ttl|hash|hashed|sha\d*|md5|digest|checksum|policy|format|field|header|count|id|ids|prompt|label|hint|rotation|reset|min|max|limit|enabled|required|strength|version|prefix|env|var|ref|arn|location|provider|store|manager|mode|source|usage|cache|index|timeout|interval|pattern|regex|rule|fingerprint|algorithm|alg|kind|scope|scopes|method|mount|binding|ref|exchange|endpoint|issuer|audience|lifetime|refresh_?after)$/;
const publicKeyName = /^(?:public|pub|publishable|tokenizer)/;

// Values that are code, references or configuration, not credentials.
const referenceValue =
  /^(?:\$|%|[&*]\w+$|!(?:vault|ref|sub|getatt|secret|env)\b|\[|\(|\{|true$|false$|null$|nil$|none$|undefined$|required$|optional$|string$|str$|bytes$|secret$|password$|env\b|process\.env|os\.environ|os\.getenv|getenv|config\.|settings\.|self\.|this\.|params\.|props\.|vault:|arn:|ref\+|op:\/\/|ENC\[)/i;
const dottedIdentifier = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/;
const wordList = /^[a-z]+(?:[_-][a-z]+)*$/i;
const fileName = /\.(?:pem|key|json|txt|env|ya?ml|p12|pfx|crt|cer|jks|keystore|gpg|asc|ini|conf|cfg)$/i;

/** The whole identifier the keyword sits in (`DB_PASSWORD`, `stripeApiKey`), read back from the match. */
function identifierAround(match: RuleMatch): { before: string; id: string } {
  let start = match.index;
  while (start > 0 && /[\w.-]/.test(match.text[start - 1] ?? '')) start--;
  const before = match.text.slice(start, match.index);
  const key = match.groups.key ?? '';
  const suffix = match.groups.suffix ?? '';
  return { before, id: before + key + suffix };
}

/** The key is a real identifier boundary and names a credential, not a property of one. */
function keyNamesASecret(match: RuleMatch): boolean {
  const key = match.groups.key ?? '';
  const suffix = match.groups.suffix ?? '';
  const { before, id } = identifierAround(match);
  const prev = before.at(-1);
  // `monkey`, `bypass`, `tokenizer`: the keyword is inside a longer word unless camelCase starts it.
  if (prev && /[A-Za-z]/.test(prev) && !(/[a-z]/.test(prev) && /[A-Z]/.test(key[0] ?? ''))) return false;
  if (suffix && !/^(?:e?s)?(?:$|[_.-]|[A-Z])/.test(suffix)) return false;
  if (/^[A-Z]/.test(suffix) && key === key.toUpperCase()) return false;
  const lower = id
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/^[._-]+|[._-]+$/g, '');
  return !nonSecretKey.test(lower) && !publicKeyName.test(lower);
}

function valueIsData(value: string): boolean {
  if (referenceValue.test(value) || dottedIdentifier.test(value) || fileName.test(value)) return false;
  if (value.includes('://') || value.startsWith('/') || value.startsWith('./') || value.startsWith('~/')) return false;
  if (/^\d+(?:\.\d+)*[a-z]{0,2}$/i.test(value)) return false;
  // Capitalised words count once: `Required` is one class, `Summer2024!` three.
  return characterClasses(value.slice(1)) >= 2 || (/^[A-Za-z]+$/.test(value) && value.length >= 20 && shannonEntropy(value) >= 4);
}

/** `password = hunter2!x`: a password-named key with a short but non-word value. */
export function checkKeyedPassword(match: RuleMatch): boolean {
  return keyNamesASecret(match) && valueIsData(match.secret) && !wordList.test(match.secret) && !defaultPasswords.test(match.secret);
}

/** `api_key: 4f9c…`: a token-named key with a long, high-entropy value. */
export function checkKeyedToken(match: RuleMatch): boolean {
  if (!keyNamesASecret(match) || !valueIsData(match.secret)) return false;
  return !wordList.test(match.secret) && shannonEntropy(match.secret) >= 3.3;
}

const databaseSchemes =
  /(?:^|[^a-z0-9+.-])(?:jdbc:)?(postgres|postgresql|mysql|mariadb|mongodb|mongodb\+srv|redis|rediss|amqp|amqps|mssql|sqlserver|cockroachdb|clickhouse|couchdb|neo4j|neo4j\+s|bolt|memcached|cassandra|oracle|db2|snowflake|kafka|nats)$/i;
const anyScheme = /(?:^|[^a-z0-9+.-])[a-z][a-z0-9+.-]{1,30}$/i;
const defaultPasswords =
  /^(?:my|your|the|db|some|a)?[_-]?(?:pass(?:word)?|passwd|pwd|secret|pw)s?\d?$|^(?:root|admin|guest|postgres|mysql|test|user|username|redis|rabbitmq|mongo|mongodb|default|token|apikey|api_key|key|foo|bar|baz|pass123|password123|letmein|qwerty|123456|1234|x+|_+)$/i;

function urlPasswordIsReal(match: RuleMatch): boolean {
  const password = match.secret;
  const user = match.groups.user ?? '';
  if (password.length < 3 || password === user) return false;
  if (defaultPasswords.test(password)) return false;
  if (/^[\d]{1,5}$/.test(password) && user === '') return false;
  return !/^[$%{[:<*]/.test(password);
}

function schemeBefore(match: RuleMatch): string | undefined {
  return match.text.slice(Math.max(0, match.index - 40), match.index);
}

/** `postgres://app:s3cret@db/app`: userinfo with a real password under a database scheme. */
export function checkDatabaseUrl(match: RuleMatch): boolean {
  const before = schemeBefore(match);
  return before !== undefined && databaseSchemes.test(before) && urlPasswordIsReal(match);
}

/** `https://deploy:s3cret@host/`: userinfo with a real password under any other scheme. */
export function checkOtherUrl(match: RuleMatch): boolean {
  const before = schemeBefore(match);
  return before !== undefined && anyScheme.test(before) && !databaseSchemes.test(before) && urlPasswordIsReal(match);
}
