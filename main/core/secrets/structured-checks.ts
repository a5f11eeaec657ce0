import { isExamplePassword } from './generic-checks.js';
import { characterClasses, isPlaceholder, shannonEntropy } from './false-positives.js';
import type { RuleMatch } from './secret-rule.js';

/**
 * Checks for secrets that only a structure around them identifies: the base64 `auth` of a Docker
 * config (`user:password`), a Kubernetes Secret's `data:` values (base64 of anything), a JWT or JWE
 * whose header is JSON naming its algorithm.
 */

function decodeBase64(value: string): string | null {
  const text = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  // Printable text only: binary or mis-decoded data is not a password someone typed.
  return /^[\x20-\x7e]+$/.test(text) ? text : null;
}

// The decoded value is a credential, not a stand-in: long enough, not a word, not a documented example.
function decodedIsSecret(value: string): boolean {
  if (value.length < 6 || isPlaceholder(value) || isExamplePassword(value)) return false;
  if (/^[$%{<[]/.test(value) || /^[a-z]+$/i.test(value)) return false;
  return characterClasses(value) >= 2 && shannonEntropy(value) >= 2.5;
}

/** Docker `auths` entry: `"auth": base64("user:password")` with a real password. */
export function checkDockerAuth(match: RuleMatch): boolean {
  const decoded = decodeBase64(match.secret);
  const colon = decoded?.indexOf(':') ?? -1;
  if (!decoded || colon < 1) return false;
  return decodedIsSecret(decoded.slice(colon + 1));
}

/** `BASIC_AUTH=dXNlcjpwYXNz`: HTTP Basic credentials, base64 of `user:password`, under a name that says so. */
export function checkBasicAuthValue(match: RuleMatch): boolean {
  return checkDockerAuth(match);
}

/** Base64 of at least 16 bytes that are not text: key material (an AES key, a keystore), however it looks. */
export function decodesToKeyBytes(value: string): boolean {
  const bytes = Buffer.from(value, 'base64');
  return bytes.length >= 16 && !/^[\x20-\x7e\t\r\n]*$/.test(bytes.toString('latin1')) && new Set(bytes).size >= bytes.length / 3;
}

// Names in a Secret's data that hold identifiers, not credentials.
const publicDataKey = /^(?:user(?:name)?|login|email|host(?:name)?|port|database|db|url|endpoint|region|namespace|ca\.crt|tls\.crt)$/i;

/**
 * `  password: czNjcjN0` inside the `data:` map of a document with `kind: Secret`: Kubernetes stores
 * every value there base64-encoded, so the value decodes to the secret itself.
 */
export function checkKubernetesSecretData(match: RuleMatch): boolean {
  if (publicDataKey.test(match.groups.name ?? '')) return false;
  // The nearest parent key above this line must be `data:` and the document a Secret.
  const before = match.text.slice(Math.max(0, match.index - 4000), match.index);
  const lines = before.split('\n');
  const documentStart = lines.findLastIndex((l) => /^(?:---|```)/.test(l));
  const document = lines.slice(documentStart + 1);
  if (!document.some((l) => /^kind:[ \t]*["']?Secret["']?[ \t]*$/.test(l))) return false;
  const parent = document.findLast((l) => /^\S[^:]*:[ \t]*$/.test(l));
  if (parent === undefined || !/^data:/.test(parent)) return false;
  const decoded = decodeBase64(match.secret);
  return decoded === null ? decodesToKeyBytes(match.secret) : decodedIsSecret(decoded);
}

function decodeBase64Url(part: string): string {
  return Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}

function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(decodeBase64Url(part)) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A JWS (`header.payload.signature`) or JWE (five parts): the header is a JSON object naming an
 * algorithm other than `none`; a JWS payload is a JSON object and its signature is long enough to sign.
 */
export function checkJwt(match: RuleMatch): boolean {
  const parts = match.secret.split('.');
  const header = jsonObject(parts[0] ?? '');
  if (!header || typeof header.alg !== 'string' || header.alg.toLowerCase() === 'none') return false;
  if (parts.length === 5) return typeof header.enc === 'string' && (parts[3]?.length ?? 0) >= 16;
  return parts.length === 3 && jsonObject(parts[1] ?? '') !== null && (parts[2]?.length ?? 0) >= 16;
}
