import { isPlaceholder } from './false-positives.js';
import type { RuleMatch } from './secret-rule.js';

/** Checks that one vendor's rule needs beyond its pattern: what the token decodes to, what sits near it. */

function decodeBase64Url(part: string): string {
  return Buffer.from(part.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
}

// A Discord bot token starts with the bot's numeric user id in base64.
export function checkDiscordToken(match: RuleMatch): boolean {
  const id = decodeBase64Url(match.secret.split('.')[0] ?? '');
  return /^\d{17,20}$/.test(id);
}

// An Azure storage key (88 base64 characters ending `==`) outside a connection string: only with Azure
// named within two lines, and not where such a string is a public key or a package integrity hash.
export function checkAzureKeyNearName(match: RuleMatch): boolean {
  const lineStart = match.text.lastIndexOf('\n', match.index - 1) + 1;
  const lineEnd = match.text.indexOf('\n', match.index);
  const line = match.text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  if (/public[ _-]?keys?|sha512-|integrity|ssh-/i.test(line)) return false;
  const before = match.text.slice(0, lineStart).split('\n').slice(-3).join('\n');
  const after = lineEnd === -1 ? '' : match.text.slice(lineEnd + 1).split('\n').slice(0, 2).join('\n');
  return /azure/i.test(`${before}\n${line}\n${after}`);
}

// Azure SAS signatures only mean something next to the other SAS parameters.
export function checkAzureSas(match: RuleMatch): boolean {
  const around = match.text.slice(Math.max(0, match.index - 400), match.index + 400);
  return /[?&]sv=\d{4}-\d{2}-\d{2}/.test(around);
}

/** `xoxa-2-ajfgtwxccly8`: a generated tail mixes letters and digits; `xoxa-nyc` (a name) does not. */
export function hasLetterAndDigit(match: RuleMatch): boolean {
  const tail = match.secret.slice(5);
  return /[a-z]/i.test(tail) && /\d/.test(tail);
}

// A Telegram token outside the usual `bot<id>:AA…` shape (`<id>:A…`) only counts with Telegram named
// on the same line or the one above.
export function telegramNamed(match: RuleMatch): boolean {
  const lineStart = match.text.lastIndexOf('\n', match.index - 1);
  const above = match.text.lastIndexOf('\n', lineStart - 1);
  return /telegr/i.test(match.text.slice(Math.max(0, above, match.index - 200), match.index));
}

/** `SUMO_ACCESS_ID = "su9OL59biWiJu7"` has digits; `sumOfExposures` is a name that happens to start with `su`. */
export function sumoAccessId(match: RuleMatch): boolean {
  return /\d/.test(match.secret) && !/^su[A-Z][a-z]+(?:[A-Z][a-z]+)+$/.test(match.secret);
}

/** A webhook path whose parts are typed filler (`…/qKirRWalryBGqKirRWalryBG`) is an example. */
export function webhookPathReal(match: RuleMatch): boolean {
  return !match.secret.split('/').some((part) => isPlaceholder(part));
}

/** `key-dirirygl04i92ww1uuvz9owuc9sb0fpm` has digits; `key-` and a run of letters is a name. */
export function hasDigit(match: RuleMatch): boolean {
  return /\d/.test(match.secret);
}

/** A generated 24-character token mixes upper case, lower case and digits; a word or an id does not. */
export function mixedCaseAndDigit(match: RuleMatch): boolean {
  const s = match.secret;
  return /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s);
}

// A service-account file's credential is its private key: where the key in the same file is a stand-in
// (`…EXAMPLE=`, `MIIE…ASC...`, `YOUR-PRIVATE-KEY`), the file is documentation, whatever its key id.
export function serviceAccountKeyReal(match: RuleMatch): boolean {
  const around = match.text.slice(Math.max(0, match.index - 3000), match.index + 3000);
  const key = /\\?"private_key\\?"[ \t]{0,4}:[ \t]{0,4}\\?"([^"]{0,4000})/.exec(around)?.[1];
  if (key === undefined) return true;
  const body = key.replace(/-----(?:BEGIN|END) [A-Z ]{0,40}-----/g, '').replace(/\\+n/g, '');
  return !isPlaceholder(body) && !/EXAMPLE|YOUR[_-]/i.test(body);
}

const uuidPattern = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;

/**
 * An old-format Azure AD secret: generated (upper, lower and digits, with one of its punctuation marks),
 * and an app's client or tenant id, a UUID, within a few lines; a lone 32-character password is not one.
 */
export function checkAzureLegacySecret(match: RuleMatch): boolean {
  const s = match.secret;
  if (!/[a-z]/.test(s) || !/[A-Z]/.test(s) || !/\d/.test(s) || !/[_.~?@:[\]-]/.test(s) || isPlaceholder(s)) return false;
  const around = match.text.slice(Math.max(0, match.index - 400), match.index + match.secret.length + 400);
  return uuidPattern.test(around);
}
