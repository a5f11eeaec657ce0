import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { BINARY_SNIFF_BYTES } from './file-kind.js';

const CHUNK_BYTES = 64 * 1024;

export interface WindowRequest {
  /** 0-based index of the first line wanted. */
  start: number;
  count: number;
  /** Longer lines are cut to this many characters (only that much of one is ever held). */
  maxLineChars: number;
  /** The numbered lines returned stop before this many bytes of text. */
  maxBytes: number;
  /** Read on to the end to hash the whole file (for Edit's "read before write" check). */
  hashWhole: boolean;
  signal?: AbortSignal;
}

export interface LineWindow {
  binary: boolean;
  /** The wanted lines: [1-based number, text, was it cut]. */
  lines: [number, string, boolean][];
  /** Lines in the file, when the read reached its end. */
  totalLines: number | null;
  /** True when `maxBytes` stopped the window before `count` lines. */
  stoppedAtBytes: boolean;
  /** sha256 of the whole file, when `hashWhole` and the read got to the end. */
  digest: string | null;
}

/**
 * Streams a file in 64 KiB chunks and keeps only the wanted lines: memory stays bounded by the window
 * (at most `maxBytes`, plus one chunk) whatever the file's size, and reading stops once the window is
 * full — unless the whole file must be hashed, or the window starts past the end (then the lines are
 * counted to say how many there are). Lines before the window are counted on the raw bytes (a \n byte
 * is never part of a multi-byte UTF-8 character), so none of them is decoded. Lines split on \n with a
 * trailing \r dropped, as `/\r?\n/` does.
 */
export async function readLineWindow(handle: FileHandle, req: WindowRequest): Promise<LineWindow> {
  const hash = req.hashWhole ? createHash('sha256') : null;
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.alloc(CHUNK_BYTES);
  const end = req.start + req.count;
  const lines: [number, string, boolean][] = [];
  let sniffed = 0;
  let line = 0; // index of the line being read
  let inLine = false; // the current line has characters (so a last line without \n still counts)
  let held = ''; // the first maxLineChars + 2 characters of a wanted line
  let length = 0; // its length so far, in UTF-16 units (as String.length)
  let endsWithCr = false;
  let bytes = 0;
  let stoppedAtBytes = false;
  let windowFull = req.count === 0;

  const finishLine = () => {
    if (!stoppedAtBytes) {
      const realLength = endsWithCr ? length - 1 : length;
      const cut = realLength > req.maxLineChars;
      const text = cut ? held.slice(0, req.maxLineChars) : held.slice(0, realLength);
      const size = Buffer.byteLength(text) + 8; // the number column and tab
      if (bytes + size > req.maxBytes && lines.length > 0) stoppedAtBytes = true;
      else {
        bytes += size;
        lines.push([line + 1, text, cut]);
      }
    }
    line += 1;
    inLine = false;
    held = '';
    length = 0;
    endsWithCr = false;
    if (line >= end || stoppedAtBytes) windowFull = true;
  };

  /** Decoded text of wanted lines. */
  const take = (text: string) => {
    for (let from = 0; !windowFull; ) {
      const nl = text.indexOf('\n', from);
      const piece = nl < 0 ? text.slice(from) : text.slice(from, nl);
      if (piece.length > 0) {
        if (held.length <= req.maxLineChars) held += piece.slice(0, req.maxLineChars + 2 - held.length);
        length += piece.length;
        endsWithCr = piece.endsWith('\r');
        inLine = true;
      }
      if (nl < 0) return;
      finishLine();
      from = nl + 1;
    }
  };

  /** Raw bytes of lines before the window: counts them; returns where the window starts in `chunk`. */
  const skip = (chunk: Buffer): number => {
    let at = 0;
    while (line < req.start) {
      const nl = chunk.indexOf(0x0a, at);
      if (nl < 0) {
        if (at < chunk.length) inLine = true;
        return chunk.length;
      }
      line += 1;
      inLine = false;
      at = nl + 1;
    }
    return at;
  };

  for (let position = 0; ; ) {
    if (req.signal?.aborted) throw new Error('The read was stopped.');
    const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buf.subarray(0, bytesRead);
    if (sniffed < BINARY_SNIFF_BYTES) {
      const head = chunk.subarray(0, BINARY_SNIFF_BYTES - sniffed);
      if (head.includes(0)) return { binary: true, lines: [], totalLines: null, stoppedAtBytes: false, digest: null };
      sniffed += head.length;
    }
    hash?.update(chunk);
    if (!windowFull) take(decoder.write(chunk.subarray(skip(chunk))));
    else if (!hash) return { binary: false, lines, totalLines: null, stoppedAtBytes, digest: null };
  }
  let totalLines: number | null = null;
  if (!windowFull) {
    // The whole file went through skip/take: the last line (without \n) is finished and all are counted.
    if (line >= req.start) take(decoder.end());
    if (inLine) {
      if (line >= req.start) finishLine();
      else line += 1;
    }
    totalLines = line;
  }
  return { binary: false, lines, totalLines, stoppedAtBytes, digest: hash ? hash.digest('hex') : null };
}
