/**
 * Structure that proves a token is real rather than typed by hand: GitHub's (and npm's) CRC32 suffix, a
 * PyPI token's macaroon. A rule's `certain` check uses these so a real token is reported even where it
 * happens to look like filler to the placeholder tests.
 */

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = crcTable[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const base62Digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function base62(n: number, width: number): string {
  let out = '';
  for (let v = n; v > 0; v = Math.floor(v / 62)) out = base62Digits[v % 62] + out;
  return out.padStart(width, '0');
}

/**
 * `ghp_` + 30 random base62 characters + the base62 CRC32 of those 30, in 6 characters: the format
 * GitHub has issued since 2021 (also `gho_`, `ghu_`, `ghs_`, `ghr_` and npm's `npm_` tokens).
 */
export function hasCrc32Suffix(token: string): boolean {
  const body = token.slice(token.indexOf('_') + 1);
  if (body.length !== 36) return false;
  return base62(crc32(body.slice(0, 30)), 6) === body.slice(30);
}

function readVarint(bytes: Buffer, at: number): [value: number, next: number] | null {
  let value = 0;
  for (let shift = 0, i = at; i < bytes.length && shift < 35; shift += 7, i++) {
    value += (bytes[i]! & 0x7f) * 2 ** shift;
    if ((bytes[i]! & 0x80) === 0) return [value, i + 1];
  }
  return null;
}

/**
 * A PyPI API token is `pypi-` + a base64url version-2 macaroon: fields of (type, length, data) whose
 * location is `pypi.org`, ending in a 32-byte signature. Hand-typed bodies do not parse.
 */
export function isPypiMacaroon(token: string): boolean {
  const bytes = Buffer.from(token.replace(/^pypi-/, '').replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes[0] !== 2) return false;
  let location = '';
  for (let at = 1; at < bytes.length; ) {
    const type = readVarint(bytes, at);
    if (!type) return false;
    at = type[1];
    if (type[0] === 0) continue; // end of a section
    const length = readVarint(bytes, at);
    if (!length || length[1] + length[0] > bytes.length) return false;
    const data = bytes.subarray(length[1], length[1] + length[0]);
    at = length[1] + length[0];
    if (type[0] === 1 && !location) location = data.toString('latin1');
    if (type[0] === 6) return data.length === 32 && at === bytes.length && location === 'pypi.org';
  }
  return false;
}
