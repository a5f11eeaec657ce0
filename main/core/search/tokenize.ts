/**
 * MiniSearch's default tokenizer, `text.split(/[\n\r\p{Z}\p{P}]+/u)`, as a scan over char codes with
 * the separators of the first 64K code points looked up in a table filled as they are met. Same
 * output, empty leading/trailing tokens included (test/main/core/search/tokenize.test.ts); about three
 * times faster, which is a large share of indexing a 10,000-note vault cold (docs/memory.md#vault-upkeep `vault-ready`).
 */
const SEPARATOR = /^[\n\r\p{Z}\p{P}]$/u;

/** Per BMP code unit: 0 not yet known, 1 separator, 2 part of a word. */
const known = new Uint8Array(0x10000);

function isSeparatorUnit(code: number): boolean {
  let k = known[code]!;
  if (k === 0) known[code] = k = SEPARATOR.test(String.fromCharCode(code)) ? 1 : 2;
  return k === 1;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Calls `emit(start, end)` for each token of `text` as the split makes them, empty edge tokens included. */
function scan(text: string, emit: (start: number, end: number) => void): void {
  const n = text.length;
  let start = 0;
  let inSeparator = false;
  for (let i = 0; i < n; ) {
    const code = text.charCodeAt(i);
    let width = 1;
    let separator: boolean;
    if (isHigh(code) && i + 1 < n && isLow(text.charCodeAt(i + 1))) {
      width = 2;
      separator = SEPARATOR.test(text.slice(i, i + 2));
    } else {
      // A lone surrogate is a code point of its own to the /u regex, and never a separator.
      separator = isSeparatorUnit(code);
    }
    if (separator) {
      if (!inSeparator) emit(start, i);
      inSeparator = true;
    } else if (inSeparator) {
      inSeparator = false;
      start = i;
    }
    i += width;
  }
  if (inSeparator) emit(n, n);
  else emit(start, n);
}

export function tokenize(text: string): string[] {
  const out: string[] = [];
  scan(text, (start, end) => out.push(text.slice(start, end)));
  return out;
}

/** Where the words of `text` are, as [start, end) offsets (the tokens of `tokenize`, empty ones left out). */
export function wordSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  scan(text, (start, end) => {
    if (end > start) out.push([start, end]);
  });
  return out;
}
