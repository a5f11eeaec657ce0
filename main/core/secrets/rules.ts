import { checkCliPassword, checkCurlHeader, checkCurlUser, checkProseCredential, checkDatabaseUrl, checkKeyedPassword, checkKeyedToken, checkOtherUrl } from './generic-checks.js';
import { keyed, type Row } from './rule-patterns.js';
import { platformRules } from './rules-platforms.js';
import { appRules } from './rules-apps.js';
import { checkBasicAuthValue, checkJwt } from './structured-checks.js';
import type { SecretRule } from './secret-rule.js';

/**
 * The rules table: vendor rules (rules-platforms.ts, rules-apps.ts), then secrets that only their
 * structure identifies, then the context-keyed catch-alls, which defer to a specific rule on the same value.
 */

const urlWithPassword = /:\/\/(?<user>[^\s:/@'"`<>]{0,100}):(?<secret>[^\s@/'"`<>]{1,200})@(?<host>[^\s/@'"`<>?#]{1,253})/g;

const structuralRules: Row[] = [
  // Private keys, tokens with structure, connection strings.
  {
    id: 'private-key',
    family: 'private-key',
    description: 'PEM or OpenSSH/PGP private key block',
    // The body must follow the header (after optional `Proc-Type:`-style lines, also as `\n` in JSON):
    // a header alone, or one with `...` for a body, is documentation.
    regex: /-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\\r|\\n|\s|[A-Za-z-]{1,30}: [^\n\\]{0,100}){0,12}?(?<secret>[A-Za-z0-9+/=]{40,120})/gi,
    keywords: ['private key'],
    entropy: 4,
    reportMatchStart: true,
    blockRest: /[A-Za-z0-9+/=]{0,4096}(?:(?:\r?\n|(?:\\r)?\\n)[ \t]{0,8}[A-Za-z0-9+/=]{1,4096}(?![^\r\n\\"'])){0,400}(?:(?:\r?\n|(?:\\r)?\\n)[ \t]{0,8}-----END[ A-Z0-9_-]{0,40}PRIVATE KEY(?: BLOCK)?-----)?/y,
  },
  // A DER private key in base64 without its PEM lines: the SEQUENCE opens with version 0 (`MII…IBA`),
  // where a certificate opens with another SEQUENCE (`MII…CCA`).
  { id: 'private-key-der', family: 'private-key', description: 'base64 DER private key without PEM armour', regex: /(?<![A-Za-z0-9+/])(?<secret>MII[A-Za-z0-9+/]{3}IBA[A-Za-z0-9+/]{56,8000}={0,2})(?![A-Za-z0-9+/=])/g, keywords: ['mii'], entropy: 4.5 },
  { id: 'jwt', family: 'jwt', description: 'JSON Web Token', regex: /\b(?<secret>e[wy][A-Za-z0-9_-]{15,600}\.(?:e[wy][A-Za-z0-9_-]{10,4000}\.[A-Za-z0-9_-]{0,1000}|[A-Za-z0-9_-]{0,1000}\.[A-Za-z0-9_-]{8,100}\.[A-Za-z0-9_-]{16,8000}\.[A-Za-z0-9_-]{8,100}))/g, keywords: ['eyj', 'eya', 'ewo', 'ew0', 'ewk'], check: checkJwt },
  // Jenkins keeps credentials in credentials.xml as `{AQAAABAAA…}`, encrypted with the controller's own key,
  // which sits beside it: the blob is as good as the secret to anyone who has the controller's files.
  { id: 'jenkins-credential-secret', family: 'dev-tooling', description: 'Jenkins credentials.xml secret', regex: /<(?<key>secret|password|apiToken|privateKey|passphrase)>\{(?<secret>AQAAABAAA[A-Za-z0-9+/= ]{20,4000})\}<\/\k<key>>/g, keywords: ['{aqaaabaaa'], entropy: 3.5 },
  { id: 'database-connection-string', family: 'connection-string', description: 'database URL with a password', regex: urlWithPassword, keywords: ['://'], check: checkDatabaseUrl },
  { id: 'url-with-password', family: 'connection-string', description: 'URL with a password', regex: new RegExp(urlWithPassword.source, 'g'), keywords: ['://'], check: checkOtherUrl },

];

const genericRules: Row[] = [
  // Context-keyed catch-alls, after gitleaks' generic-api-key: the key names a secret, the value is not a word.
  {
    id: 'generic-password',
    family: 'generic',
    description: 'password assigned in configuration or code',
    regex: keyed('passw(?:or)?d|passwd|pwd|passphrase|pass', '[^\\s"\'`,;&<>|]{6,200}', ''),
    keywords: ['pass', 'pwd'],
    entropy: 2.3,
    check: checkKeyedPassword,
    generic: true,
  },
  {
    id: 'generic-api-key',
    family: 'generic',
    description: 'API key, token or secret assigned in configuration or code',
    regex: keyed('api[_.-]?key|apikey|secret|token|credentials?|creds|auth|key', '[^\\s"\'`,;&<>|]{12,300}', ''),
    keywords: ['key', 'secret', 'token', 'credential', 'creds', 'auth'],
    entropy: 2.8,
    check: checkKeyedToken,
    generic: true,
  },
  {
    id: 'authorization-header',
    family: 'generic',
    description: 'credentials in an HTTP Authorization header',
    regex: /authorization["']?[ \t]{0,4}[:=][ \t]{0,4}["']?(?:bearer|basic|token|bot|apikey)[ \t]{1,4}(?<secret>[\w.~+/-]{16,600}={0,2})/gi,
    keywords: ['authorization'],
    entropy: 3,
    generic: true,
  },
  {
    id: 'cli-password-argument',
    family: 'generic',
    description: 'password on a database or SSH client command line',
    // `mysql -p SECRET` would prompt (the next word is the database), so mysql's password is attached.
    regex: /\b(?:(?:mysql(?:dump|admin|sh)?|mariadb)\b[^\n|;&]{0,200}?[ \t](?:-p|--password=)|(?:redis-cli|sshpass|mongosh?)\b[^\n|;&]{0,200}?[ \t](?:-a|-p|--pass(?:word)?)[ \t=])['"]?(?<secret>[^\s'"]{6,128})/g,
    keywords: ['mysql', 'mariadb', 'redis-cli', 'sshpass', 'mongo'],
    entropy: 2.3,
    check: checkCliPassword,
    generic: true,
  },
  {
    id: 'basic-auth-credentials',
    family: 'generic',
    description: 'base64 user:password under a Basic-auth name',
    regex: keyed('basic[_.-]?auth|http[_.-]?auth|auth[_.-]?basic', '[A-Za-z0-9+/]{8,400}={0,2}'),
    keywords: ['basic', 'http_auth', 'http-auth', 'httpauth'],
    check: checkBasicAuthValue,
    generic: true,
  },
  {
    id: 'curl-auth-user',
    family: 'generic',
    description: 'user:password passed to curl -u',
    // The user may be an email address and either part may be quoted; `-u "secret:"` is a token as the user.
    regex: /(?:^|[ \t])(?:-u|--user)[ \t=]{1,4}(?:["']?[^\s:"']{0,100}["']?:["']?|"(?=[^\s:"']{8,200}:"))(?<secret>[^\s"']{6,200})/g,
    keywords: ['-u ', '--user'],
    entropy: 2.3,
    check: checkCurlUser,
    generic: true,
  },
  {
    id: 'prose-credential',
    family: 'generic',
    description: 'credential named in a sentence, its value after a colon (or after `user /`)',
    // The name, a few words of prose without an assignment, a colon, then the value (or `user / value`).
    regex: /\b(?:token|secret|password|passphrase|credentials|api[ _-]?key)\b[^\n:="'`]{0,60}?(?::|[ \t]-)[ \t]{1,4}(?:[\w.@-]{1,40}[ \t]{1,2}\/[ \t]{1,2})?['"`]?(?<secret>[^\s"'`<>]{10,200})/gi,
    keywords: ['token', 'secret', 'password', 'passphrase', 'credentials', 'api key', 'api_key', 'api-key', 'apikey'],
    entropy: 3.3,
    check: checkProseCredential,
    generic: true,
  },
  {
    id: 'curl-auth-header',
    family: 'generic',
    description: 'credential in a header passed to curl -H',
    // The header names a credential (Authorization, API key, token); the scheme word, if any, is skipped.
    regex: /\bcurl\b[^\n]{0,400}?(?:\\?\r?\n[^\n]{0,400}?){0,5}[ \t](?:-H|--header)[ \t=]{1,5}["'](?:authorization|(?:x-[a-z]{1,20}-)?api-?key|(?:x-)?(?:api-|auth-)?token)[ \t]{0,5}:[ \t]{0,5}(?:(?:bearer|basic|token|api-token|apikey)[ \t]{1,4})?(?<secret>[\w=~@.+/-]{8,600})["']/gi,
    keywords: ['curl'],
    entropy: 2.75,
    check: checkCurlHeader,
    generic: true,
  },
];

/** The table, in the order rules run; generic rules last. */
export const secretRules: readonly SecretRule[] = [...platformRules, ...appRules, ...structuralRules, ...genericRules].map((row) => ({ ...row, keywords: row.keywords ?? [] }));
