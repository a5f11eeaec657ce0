import { utf8Bytes } from './team-key.js';

/**
 * docs/memory.md#team-memory batching: keys sorted, bodies up to `maxBatchBytes` (the JSON body's bytes), an entry larger
 * than that alone. The reference's rationale: gateways reject big bodies with an unstructured 413, and
 * the server upserts, so sequential PUTs are safe.
 */
export function batchEntries(entries: Record<string, string | null>, maxBatchBytes: number): Record<string, string | null>[] {
  const overhead = utf8Bytes('{"entries":{}}');
  const batches: Record<string, string | null>[] = [];
  let current: Record<string, string | null> = {};
  let size = overhead;
  let count = 0;
  for (const key of Object.keys(entries).sort()) {
    const value = entries[key]!;
    // `"key":value`, plus a comma when it is not the first: the body's exact byte count.
    const entryBytes = utf8Bytes(JSON.stringify(key)) + utf8Bytes(JSON.stringify(value)) + 1;
    if (count > 0 && size + 1 + entryBytes > maxBatchBytes) {
      batches.push(current);
      current = {};
      size = overhead;
      count = 0;
    }
    current[key] = value;
    size += entryBytes + (count > 0 ? 1 : 0);
    count++;
  }
  if (count > 0) batches.push(current);
  return batches;
}

/** Network backoff: 500 ms × 2^(n−1), capped, minus up to 25 % jitter so clients do not retry in step. */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  const raw = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (1 - 0.25 * random()));
}
