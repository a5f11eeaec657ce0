import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { parseJsonl, serializeRecords, type ParsedTranscript } from './jsonl.js';
import type { TranscriptRecord } from './records.js';

/**
 * Appends records to a JSONL file as one batch: a single append of whole lines, then fsync, so a
 * crash can only tear the last line (and never an earlier one). When the file ends in a torn line, the
 * batch starts on a new line so the torn fragment cannot swallow its first record. Callers serialize
 * appends to one file (TranscriptStore does).
 */
export async function appendRecords(file: string, records: readonly TranscriptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const text = serializeRecords(records);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.open(file, 'a+', 0o600);
  try {
    const { size } = await handle.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    await handle.appendFile(prefix + text);
    await handle.sync();
    // A new file's directory entry must be durable too, or a crash could lose the whole transcript.
    if (size === 0) await syncDir(path.dirname(file));
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the file's own fsync still holds.
  } finally {
    await handle.close();
  }
}

/** Reads any transcript file (`--transcript FILE`), tolerating malformed and torn lines. */
export async function readTranscriptFile(file: string): Promise<ParsedTranscript> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new AppFailure('not_found', `No transcript at ${file}`);
    throw error;
  }
  return parseJsonl(text);
}
