import net from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * Raw WebSocket bytes for the host's malformed-frame tests: the ws client library cannot send a broken
 * frame, so these open /ipc by hand over TCP (RFC 6455 §4.1) and write the frame as given.
 */

/** A client frame with the mask RFC 6455 §5.3 requires (unless `masked` is false). */
export function frame(first: number, payload: Buffer, opts: { masked?: boolean; announce?: number } = {}): Buffer {
  const masked = opts.masked ?? true;
  const length = opts.announce ?? payload.length;
  const maskBit = masked ? 0x80 : 0;
  // Lengths under 126 fit the second byte; anything longer is announced in the 8-byte extended field.
  const extended = Buffer.alloc(8);
  extended.writeBigUInt64BE(BigInt(length));
  const header = length < 126 ? Buffer.from([first, maskBit | length]) : Buffer.concat([Buffer.from([first, maskBit | 127]), extended]);
  if (!masked) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]!));
  return Buffer.concat([header, key, body]);
}

/** Opens /ipc by hand, sends `bytes`, and resolves with the close code of the server's close frame. */
export async function sendRaw(port: number, token: string, bytes: Buffer): Promise<number> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    [
      `GET /ipc?token=${token} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Origin: http://127.0.0.1:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  let received = Buffer.alloc(0);
  let sent = false;
  return new Promise<number>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!sent) {
        if (!received.subarray(0, end).toString().startsWith('HTTP/1.1 101')) return reject(new Error(received.toString()));
        sent = true;
        socket.write(bytes);
      }
      let rest = received.subarray(end + 4);
      // Events the server pushes to every tab (a status, a change) may come first: skip whole frames to its close frame.
      for (let size = serverFrameSize(rest); rest[0] !== 0x88 && size !== null && rest.length >= size; size = serverFrameSize(rest)) rest = rest.subarray(size);
      // The server's close frame: 0x88, an unmasked length, then the 2-byte code.
      if (rest.length >= 4 && rest[0] === 0x88) {
        resolve(rest.readUInt16BE(2));
        socket.destroy();
      }
    });
    socket.once('close', () => reject(new Error('closed without a close frame')));
  });
}

/** The length of the unmasked server frame at the start of `data` (header and payload), or null before its header is whole. */
function serverFrameSize(data: Buffer): number | null {
  if (data.length < 2) return null;
  const len = data[1]! & 0x7f;
  if (len < 126) return 2 + len;
  if (len === 126) return data.length < 4 ? null : 4 + data.readUInt16BE(2);
  return data.length < 10 ? null : 10 + Number(data.readBigUInt64BE(2));
}

const TEXT = 0x81;

/** The six frames RFC 6455 makes a server refuse, each with the close code it must answer (§7.4.1). */
export function malformedFrames(maxFrameBytes: number): [string, () => Buffer, number][] {
  return [
    ['a header announcing more than the frame limit', () => frame(TEXT, Buffer.alloc(0), { announce: maxFrameBytes + 1024 * 1024 }), 1009],
    ['invalid UTF-8 in a text frame', () => frame(TEXT, Buffer.from([0x68, 0xff, 0xfe])), 1007],
    ['an unmasked client frame', () => frame(TEXT, Buffer.from('{}'), { masked: false }), 1002],
    ['RSV1 set without an extension', () => frame(TEXT | 0x40, Buffer.from('{}')), 1002],
    ['opcode 3 (reserved)', () => frame(0x83, Buffer.from('{}')), 1002],
    ['close code 999', () => frame(0x88, Buffer.from([0x03, 0xe7])), 1002],
  ];
}
