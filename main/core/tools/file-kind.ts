import { promises as fs } from 'node:fs';

/** A NUL byte in the first 8 KB marks a file as binary (the heuristic git and grep use). */
export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

export async function statOrNull(p: string) {
  try {
    return await fs.stat(p);
  } catch {
    return null;
  }
}
