import { promises as fs } from 'node:fs';
import { parseJsonl } from '../transcripts/index.js';
import type { TranscriptRecord } from '../transcripts/index.js';

/** Reads a Claude Code-shaped JSONL transcript; malformed lines and a torn last line are skipped. */
export async function readTranscriptFile(file: string): Promise<TranscriptRecord[]> {
  return parseJsonl(await fs.readFile(file, 'utf8')).records;
}
