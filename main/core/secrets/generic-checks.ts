import { characterClasses, isPlaceholder, shannonEntropy } from './false-positives.js';
import type { RuleMatch } from './secret-rule.js';

/**
 * Checks for the context-keyed rules (`password = …`, `api_key: …`) and for URLs with a password,
 * where the value has no fixed shape and the key name and the value's texture decide.
 */

// The identifier ends in a word that says the value is about a secret, not the secret itself.
const nonSecretKey =
  /(?:^|[_.-])(?:url|uri|endpoint|host|file|path|dir|name|type|length|len|size|expiry|expires?|expires?_?(?:at|in)|ttl|hash|hashed|sha\d*|md5|digest|checksum|policy|format|field|header|count|id|ids|prompt|label|hint|rotation|reset|min|max|limit|enabled|required|strength|version|prefix|env|var|ref|arn|location|provider|store|manager|mode|source|usage|cache|index|timeout|interval|pattern|regex|rule|fingerprint|algorithm|alg|kind|scope|scopes|method|mount|binding|exchange|issuer|audience|lifetime|refresh_?after)$/;
// Names of values that guard a form or page through a list, or that key a database row or cache entry:
// `csrf_token`, `authenticity_token`, `next_page_token`, `idempotency_key`, `primaryKey`, `bucket_key`.
const notCredentialName =
  /(?:^|[_.-])(?:csrf|xsrf|authenticity|anti[_.-]?forgery|page|cursor|continuation|idempotency|correlation|trace|tracking)(?:[_.-]|$)|(?:^|[_.-])(?:primary|foreign|schema|bucket|sequence|sort|partition|composite|natural|surrogate|unique|lookup|cache|object|row|index|map|dedup|shard|routing)[_.-]key$/;
// `PUBLIC_KEY`, `DOTENV_PUBLIC_KEY_PRODUCTION`, `pubKey`: a public key is published on purpose.
const publicKeyName = /^(?:public|pub|publishable|tokenizer)|(?:^|[_.-])(?:public|publishable)(?:[_.-]|$)/;
// The identifier's last word: the credential word itself, or a qualifier that still names its value
// (`SECRET_KEY_BASE`, `token_rw`, `password2`). `roughTokenCountEstimation` names a number.
const secretLastWord =
  /(?:^|[_.-])(?:key|keys|token|tokens|secret|secrets|credential|credentials|creds|auth|apikey|password|passwords|passwd|pwd|pass|passphrase|pw|base|value|val|string|str|b64|base64|hex|raw|plain|plaintext|prod|production|dev|staging|test|live|rw|ro|admin|root|v\d|\d+)$/;
// A name that can only hold a credential, so even a UUID or a long number under it is one (`HUMIO_INGEST_TOKEN`,
// `api_key`, `client_secret`) — unlike a bare `key`, which also names map entries.
const strongSecretName = /(?:^|_)(?:token|secret|password|passwd|pwd|api_?key|access_?key|secret_?key|private_?key|auth_?key|auth|credentials?|creds)$/;

// Values that are code, references or configuration, not credentials.
const referenceValue =
  /^(?:\$|%|[&*]\w+$|!(?:vault|ref|sub|getatt|secret|env)\b|\[|\(|\{|true$|false$|null$|nil$|none$|undefined$|required$|optional$|string$|str$|bytes$|secret$|password$|env\b|process\.env|os\.environ|os\.getenv|getenv|config\.|settings\.|self\.|this\.|params\.|props\.|vault:|arn:|ref\+|op:\/\/|ENC\[)/i;
// `config.db.password`, `Settings.API_TOKEN`, `this.apiKey`: every part is a word as people name things.
// `zl2Py.fRt2u` is a password with a dot in it.
const dottedIdentifier = /^[A-Za-z_$][\w$]*(?:[?!]?\.[A-Za-z_$][\w$]*)+$/;
const identifierPart = /^(?:[a-z_$][a-z_$]*\d*|[a-z]+(?:[A-Z][a-z]+)+\d*|[A-Z][A-Z_]*\d*|[A-Z][a-z]+(?:[A-Z][a-z]+)*\d*)$/;
const isCodeReference = (value: string) => dottedIdentifier.test(value) && value.split(/[?!]?\./).every((part) => identifierPart.test(part));
// A value that starts like a vendor's key but failed that vendor's rule is a malformed or truncated
// example (`sk-ant-api03-abc`); the catch-all defers to the specific rule.
// Stripe object ids (`pi_3Mtw…`, `cus_…`, `acct_…`) name a payment, customer or account; they grant nothing.
const stripeObjectId = /^(?:pi|seti|ch|cus|in|sub|prod|price|pm|src|txn|evt|acct|py|re|cs_test|cs_live)_[A-Za-z0-9]{14,30}$/;
const vendorPrefix =
  /^(?:sk-ant-|sq[pua]_|ntn_|lsv2_|dt0c01\.|v1\.0-|xox[abprseo]|AKCp|cmVmdGtu|sumo|sk-proj-|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|gldt-|xox[abprse]-|xapp-|AKIA|ASIA|AIza|[sr]k_(?:live|test)_|pk_(?:live|test)_|npm_|pypi-|hf_|r8_|gsk_|dop_v1_|SG\.|NRAK-|glc_|glsa_|sntry[us]_|dckr_pat_|shp(?:at|ca|pa|ss)_|whsec_|xai-|sk-or-|lsv2_|dckr_|pscale_|cf(?:ut|at|k)_)/;
// Credential words inside a token's value mark a hand-written stand-in (`my-secret-token`).
const credentialWord = /secret|passw|token|api_?key|private/i;
const wordList = /^[_-]*[a-z]+(?:[_-][a-z]+)*[_-]*$/i;
const fileName = /\.(?:pem|key|json|txt|env|ya?ml|p12|pfx|crt|cer|jks|keystore|gpg|asc|ini|conf|cfg)$/i;

/** The whole identifier the keyword sits in (`DB_PASSWORD`, `stripeApiKey`), read back from the match. */
function identifierAround(match: RuleMatch): { before: string; id: string } {
  // Bounded so a hostile line of one endless identifier stays linear.
  const floor = Math.max(0, match.index - 128);
  let start = match.index;
  while (start > floor && /[\w.-]/.test(match.text[start - 1] ?? '')) start--;
  const before = match.text.slice(start, match.index);
  const key = match.groups.key ?? '';
  const suffix = match.groups.suffix ?? '';
  return { before, id: before + key + suffix };
}

// `PGPASSWORD`, `MYSQL_PWD`, `keypass`: the client or store the password opens, written as one word.
const qualifierBefore = /(?:^|[^a-z])(?:[a-z]*(?:admin|root|master|api|app|auth|access|client|service|db|smtp|mail|bot|user|private|partner|pg|mysql|redis|ldap|store|key|wifi))$/i;

/** The identifier in lower snake case: `stripeApiKey` → `stripe_api_key`. */
function identifierWords(match: RuleMatch, splitAtKey = false): string {
  const { before, id } = identifierAround(match);
  return (splitAtKey ? `${before}_${id.slice(before.length)}` : id)
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/^[._-]+|[._-]+$/g, '');
}

/** The key is a real identifier boundary and names a credential, not a property of one. */
function keyNamesASecret(match: RuleMatch): boolean {
  const key = match.groups.key ?? '';
  const suffix = match.groups.suffix ?? '';
  const { before } = identifierAround(match);
  const prev = before.at(-1);
  // `monkey`, `bypass`, `tokenizer`: the keyword is inside a longer word unless camelCase starts it.
  // `adminpassword`, `partnerapitoken`: run together after a word that qualifies a credential.
  // `ETSYToken`: an upper-case run, then a capitalised word, is also a word boundary.
  const camelStart = /[A-Z]/.test(key[0] ?? '') && (/[a-z]/.test(prev ?? '') || /[a-z]/.test(key[1] ?? ''));
  const runTogether = prev !== undefined && /[A-Za-z]/.test(prev) && !camelStart;
  if (runTogether && !qualifierBefore.test(before)) return false;
  if (suffix && !/^(?:e?s)?(?:$|[_.-]|[A-Z])/.test(suffix)) return false;
  if (/^[A-Z](?![a-z])/.test(suffix) && key === key.toUpperCase()) return false;
  const lower = identifierWords(match, runTogether);
  return !nonSecretKey.test(lower) && !publicKeyName.test(lower) && !notCredentialName.test(lower) && secretLastWord.test(lower);
}

/** A vendor-keyed rule (`SNYK_TOKEN = <uuid>`): the name is not a property of the credential (`SNYK_ORG_ID`). */
export function checkVendorKey(match: RuleMatch): boolean {
  const lower = identifierWords(match);
  return assignmentFits(match) && !nonSecretKey.test(lower) && !/(?:^|_)(?:org|organization|project|user|account|client|tenant|workspace|team)$/.test(lower) && !publicKeyName.test(lower);
}

// `tokenCountFromLastAPIResponse`: camelCase words, each with a vowel, are code, not a random token.
// Only letters-only values: `Summer2024` is a (weak) password, not code.
function looksLikeIdentifierWords(value: string): boolean {
  if (!/^[A-Za-z]+$/.test(value)) return false;
  const words = value.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [];
  if (words.length < 2 || words.join('') !== value) return false;
  return words.every((w) => w.length < 2 || /[aeiouy]/i.test(w)) && value.length / words.length >= 3;
}

// Sentence punctuation after a value (`token: see credentials?`) is not part of it.
const trimPunctuation = (value: string) => value.replace(/[.:?!,`]+$/, '');

function valueIsData(raw: string): boolean {
  const value = trimPunctuation(raw);
  if (/[()[\]{}]/.test(value) || looksLikeIdentifierWords(value)) return false;
  if (referenceValue.test(value) || isCodeReference(value) || fileName.test(value)) return false;
  if (value.includes('://') || value.startsWith('/') || value.startsWith('./') || value.startsWith('~/')) return false;
  if (/^\d+(?:\.\d+)*[a-z]{0,2}$/i.test(value)) return false;
  // Upper-case hex is how GPG key ids and fingerprints are printed; generated secrets use lower case.
  if (/^[0-9A-F]{16,}$/.test(value)) return false;
  // Capitalised words count once: `Required` is one class, `Summer2024!` three.
  return characterClasses(value.slice(1)) >= 2 || (/^[A-Za-z]+$/.test(value) && value.length >= 20 && shannonEntropy(value) >= 4);
}

// A value built from words that say it is not real (`…-not-a-uuid`, `fake_…`, `my-…`).
const standInWord = /(?:^|[_-])(?:not|fake|dummy|example|sample|placeholder|invalid|bogus|your|my)(?:[_-]|$)/i;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// `cGFzc3dvcmQ=` (a Kubernetes Secret's base64 of `password`): an encoded stand-in is still a stand-in.
function encodesAStandIn(value: string): boolean {
  if (value.length < 8 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  if (!/^[\x20-\x7e]+$/.test(decoded)) return false;
  // `user:password` (an npm or Docker `_auth`) is judged by its password; `Hello World>` is words.
  const password = decoded.slice(decoded.indexOf(':') + 1);
  return [decoded, password].some((d) => isExamplePassword(d) || isPlaceholder(d) || /^[a-z]+$/i.test(d)) || /^[A-Za-z]+(?: [A-Za-z]+)+\W?$/.test(decoded);
}

/**
 * The assignment form fits the text around it: an XML element (`<apiToken>value</apiToken>`) opens with
 * `<` and its value ends at `<` or the line's end; a setter's arguments (`("KEY", "value")`) are quoted.
 * Keeps `https://admin:<password>@host` from reading as an element named `password`.
 */
function assignmentFits(match: RuleMatch): boolean {
  const key = match.groups.key ?? '';
  const suffix = match.groups.suffix ?? '';
  const { before } = identifierAround(match);
  const opener = match.text[match.index - before.length - 1];
  const from = match.index + key.length + suffix.length;
  const secretAt = match.text.indexOf(match.secret, from);
  const between = match.text.slice(from, secretAt).trimStart();
  if (between.startsWith('>')) {
    const next = match.text.slice(secretAt + match.secret.length).match(/^[ \t]*(\S)?/)?.[1];
    // On the tag's own line the value must be closed by its end tag; on a line of its own, it is the line.
    return opener === '<' && (between.includes('\n') ? next === undefined || next === '<' : next === '<');
  }
  if (/^["']?[ \t]*,/.test(between)) return opener === '"' || opener === "'";
  return true;
}

/** `password = …`: a password-named key with a short value that is not a word or a reference. */
export function checkKeyedPassword(match: RuleMatch): boolean {
  const value = trimPunctuation(match.secret);
  return keyNamesASecret(match) && assignmentFits(match) && valueIsData(value) && !wordList.test(value) && !isExamplePassword(value) && !encodesAStandIn(value);
}

// Publishable keys (`pk_live_…`, `live_pub_…`, `pubkey-…`) are meant to be shipped to browsers.
const publishableValue = /^(?:pk_|pub_|pubkey-|(?:live|test)_pub_)/i;
// A near miss of a vendor's format (`<4 digits>:A…` for a Telegram token) is a truncated example.
const vendorNearMiss = /^\d{1,20}:A[\w-]{20,}$/;

/** `<entry key="jetbrains.mps.v8_elimination" value="…"/>`: a `key` attribute holds the entry's name. */
function isEntryName(match: RuleMatch): boolean {
  const lineStart = match.text.lastIndexOf('\n', match.index - 1) + 1;
  return identifierWords(match) === 'key' && /<[\w:.-]+\s[^<>]*$/.test(match.text.slice(lineStart, match.index));
}

/** Entropy a random value of this alphabet and length clears: hex has 4 bits at most, a short value log2(length). */
function enoughEntropy(value: string): boolean {
  const wanted = /^[0-9a-f]+$/i.test(value) ? 3 : 3.3;
  return shannonEntropy(value) >= Math.min(wanted, 0.82 * Math.log2(value.length));
}

/** `api_key: 4f9c…`: a token-named key with a long, high-entropy value. */
export function checkKeyedToken(match: RuleMatch): boolean {
  const value = trimPunctuation(match.secret);
  if (!keyNamesASecret(match) || !assignmentFits(match)) return false;
  const strong = strongSecretName.test(identifierWords(match));
  // A UUID or a long number under a name that can only hold a credential is one (`HUBSPOT_TOKEN=<uuid>`).
  if ((uuid.test(value) || /^\d{16,64}$/.test(value)) && strong) return shannonEntropy(value) >= 2.9;
  if (!valueIsData(value) || value.includes('?') || publishableValue.test(value) || vendorNearMiss.test(value) || capitalisedWords(value)) return false;
  if (isEntryName(match)) return false;
  // `@Microsoft.KeyVault(…)`, `@env_var`: a token that starts with `@` names where the value lives.
  if (value.startsWith('@')) return false;
  // `myuser:ATBB123abcDEF456…`: a `user:token` pair is judged by its token.
  const tail = value.slice(value.lastIndexOf(':') + 1);
  if (tail !== value && isPlaceholder(tail)) return false;
  if (stripeObjectId.test(value)) return false;
  if (vendorPrefix.test(value) || credentialWord.test(value) || standInWord.test(value) || uuid.test(value) || encodesAStandIn(value)) return false;
  return !wordList.test(value) && enoughEntropy(value);
}

const databaseSchemes =
  /(?:^|[^a-z0-9+.-])(?:jdbc:)?(postgres|postgresql|mysql|mariadb|mongodb|mongodb\+srv|redis|rediss|amqp|amqps|mssql|sqlserver|cockroachdb|clickhouse|couchdb|neo4j|neo4j\+s|bolt|memcached|cassandra|oracle|db2|snowflake|kafka|nats)$/i;
const anyScheme = /(?:^|[^a-z0-9+.-])[a-z][a-z0-9+.-]{1,30}$/i;
const defaultPasswords =
  /^(?:(?:my|your|the|db|some|a)?[_-]?(?:pass(?:word)?|passwd|pwd|secret|pw)s?|root|admin|guest|postgres|mysql|test|user|username|redis|rabbitmq|mongo|mongodb|default|token|apikey|api_key|key|foo|bar|baz|foobar|letmein|qwerty|123456|1234|simple|welcome|hunter2|dragon|monkey|abc123|iloveyou|trustno1|master|sunshine|princess|football|shadow|superman|x+|_+)\d{0,3}[!.?]*$/i;

// Documentation spells example passwords in leetspeak (`pa$$word`, `s1mpl3`, `P@ssw0rd`).
export function isExamplePassword(value: string): boolean {
  const plain = value.toLowerCase().replace(/[$5]/g, 's').replace(/0/g, 'o').replace(/[1!|]/g, 'i').replace(/3/g, 'e').replace(/[4@]/g, 'a');
  // A word or two, then `password` (`D1fficultP@ssw0rd`, `randompassword`): a stand-in that says what it stands for.
  const describedPassword = /^[a-z]{2,16}pass(?:word|wd)s?\d{0,3}[!.?]*$/.test(plain);
  return describedPassword || defaultPasswords.test(value) || defaultPasswords.test(plain) || defaultPasswords.test(plain.replace(/i/g, 'l'));
}

/** `P%40ssw0rd` as the person typed it (`P@ssw0rd`); left as is where it is not valid percent-encoding. */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function urlPasswordIsReal(match: RuleMatch): boolean {
  const password = match.secret;
  const user = match.groups.user ?? '';
  if (password.length < 4 || password === user || new Set(password).size <= 2) return false;
  // RFC 2606 documentation hosts: `https://abc:xyz@example.com` is an example of the syntax.
  if (/(?:^|\.)example(?:\.(?:com|org|net))?(?::\d+)?$/i.test(match.groups.host ?? '')) return false;
  if (isExamplePassword(percentDecoded(password))) return false;
  // `AKIAAAAAAAAAAAA:…@localhost`, `xxxx:xxxxx@…`: a stand-in user makes the whole URL an example.
  if (user.length >= 8 && isPlaceholder(user)) return false;
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

/** `mysql -pSECRET`, `redis-cli -a SECRET`, `sshpass -p SECRET`: a password given to a client on its command line. */
export function checkCliPassword(match: RuleMatch): boolean {
  const password = trimPunctuation(match.secret);
  return !isExamplePassword(password) && !/^[$%{<*(`]|[>}\]]$/.test(password) && !isPlaceholder(password) && characterClasses(password) >= 2;
}

/** `curl -u user:password`: not a URL (`-u http://…` is another tool's flag) and not an example password. */
export function checkCurlUser(match: RuleMatch): boolean {
  const password = trimPunctuation(match.secret);
  return !password.startsWith('//') && !isExamplePassword(password) && !/^[$%{<*]|[>}\]]$/.test(password);
}

/** A curl header value: not a shell variable, command or template, and not a word. */
export function checkCurlHeader(match: RuleMatch): boolean {
  const value = match.secret;
  return !/^[$%{<*]|[>}\]]$/.test(value) && characterClasses(value) >= 2 && !/^[a-z]+$/i.test(value);
}

/**
 * A credential named in a sentence (`the bearer token for the admin API: …`, `credentials: admin / …`):
 * with no key to judge by, only a value that is plainly generated counts — three character classes, or
 * a long high-entropy run — never a word, a path, a reference or a stand-in.
 */
export function checkProseCredential(match: RuleMatch): boolean {
  const value = trimPunctuation(match.secret);
  const at = match.text.indexOf(match.secret, match.index);
  const quote = match.text[at - 1];
  // `rownd token - 'rvhpdb59-6ni1-…'`: a quoted value is delimited, so a long two-class value is enough.
  const quoted = (quote === "'" || quote === '"' || quote === '`') && match.text[at + match.secret.length] === quote;
  if (!valueIsData(value) || value.includes('?') || wordList.test(value) || isExamplePassword(value) || encodesAStandIn(value)) return false;
  if (uuid.test(value) || credentialWord.test(value) || standInWord.test(value) || vendorPrefix.test(value)) return false;
  // `CI_JOB_123456` is a name; `Min12Chars+1Symbol` and `MyCompany/infra/prod` are made of words.
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) || mostlyWords(value)) return false;
  if (quoted && value.length >= 16 && characterClasses(value) >= 2 && shannonEntropy(value) >= 3.5) return true;
  return characterClasses(value) >= 3 || (value.length >= 32 && shannonEntropy(value) >= 4);
}

/** `AgencyIdentificationCodeContentType`: most of the value is capitalised words, as code names things. */
function capitalisedWords(value: string): boolean {
  const words = (value.match(/[A-Z][a-z]{2,}/g) ?? []).filter((w) => /[aeiouy]/.test(w));
  return words.length >= 2 && words.reduce((n, w) => n + w.length, 0) >= 0.6 * value.length;
}

/** Most of the value is pronounceable words of three letters or more: written by a person, not generated. */
function mostlyWords(value: string): boolean {
  const inWords = (value.match(/[A-Z]?[a-z]{3,}/g) ?? []).filter((w) => /[aeiouy]/i.test(w)).reduce((n, w) => n + w.length, 0);
  return inWords >= 0.6 * value.length;
}
