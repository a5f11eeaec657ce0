import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';
import type { Clock, Logger } from '../ports.js';
import { liveMessages } from '../session-memory/index.js';
import { conversationChain } from '../transcripts/index.js';
import { parseJsonl } from '../transcripts/index.js';
import { newestReminder } from '../transcripts/index.js';
import { reachesModel, type MessageRecord } from '../transcripts/index.js';
import { MemoryCursorStore } from './extraction-cursor.js';
import { MemoryExtractor, type ForkRunner } from './memory-extractor.js';
import { ensureMemoryDir, memoryDirFor } from './memory-paths.js';
import { memoryWriteGuard, type SecretScan } from './write-guard.js';

/** What `strata extract` reports (docs/architecture.md): absolute paths of files the pass wrote or deleted, and refused writes. */
export interface ExtractPassResult {
  memoryDir: string;
  written: string[];
  deleted: string[];
  denied: { path: string; reason: string }[];
}

/**
 * The model-visible messages of a Claude Code JSONL transcript, as a resume sees them: the chain of
 * `parentUuid` links back from the newest message (branches left by an edit or a retry and sidechains
 * drop out), from the last compact boundary on (the kept part of a session-memory compaction included),
 * without transcript-only rows (the compact summary is not one: the model sees it). Malformed lines and a torn last line are skipped.
 */
export function transcriptMessages(text: string): MessageRecord[] {
  return liveMessages(conversationChain(parseJsonl(text).records).records).filter(reachesModel);
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.set(p, createHash('sha256').update(await fs.readFile(p)).digest('hex'));
    }
  };
  await walk(dir);
  return out;
}

/** One forced extraction pass over a whole transcript (docs/architecture.md `strata extract`): no throttle, no cursor kept. */
export async function runExtractPass(options: {
  transcriptFile: string;
  projectDir: string;
  vaultRoot: string;
  fork: ForkRunner;
  scan: SecretScan;
  config: MemoryConfig['autoMemory'];
  logger: Logger;
  clock: Clock;
}): Promise<ExtractPassResult> {
  const text = await fs.readFile(options.transcriptFile, 'utf8');
  const messages = transcriptMessages(text);
  // A Strata transcript keeps its context reminder as a system record, outside the messages: the fork
  // gets it back at the head, as the conversation had it.
  const reminder = newestReminder(conversationChain(parseJsonl(text).records).records);
  const head = (at: MessageRecord | undefined): MessageRecord[] =>
    reminder === null || !at ? [] : [{ ...at, uuid: `${at.uuid}-context`, parentUuid: null, isMeta: true, type: 'user', message: { role: 'user', content: reminder } }];
  const memoryDir = await ensureMemoryDir(await memoryDirFor(options.vaultRoot, options.projectDir));
  const denied: ExtractPassResult['denied'] = [];
  const fork: ForkRunner = (request) =>
    options.fork({
      ...request,
      contextMessages: [...head(request.contextMessages[0]), ...request.contextMessages],
      canUseTool: async (toolName, input) => {
        const decision = await request.canUseTool(toolName, input);
        if (decision.behavior === 'deny' && typeof input.file_path === 'string') denied.push({ path: input.file_path, reason: decision.message });
        return decision;
      },
    });
  const extractor = new MemoryExtractor({
    memoryDir,
    projectDir: options.projectDir,
    guard: memoryWriteGuard({ memoryDirs: [memoryDir], scan: options.scan }),
    fork,
    cursors: new MemoryCursorStore(),
    config: options.config,
    switches: () => ({ autoMemory: true, extraction: true }),
    logger: options.logger,
    clock: options.clock,
  });
  const before = await snapshot(memoryDir);
  const sessionId = (messages[0]?.sessionId as string | undefined) ?? 'extract';
  const outcome = await extractor.runOnce({ sessionId, messages });
  if (outcome.kind === 'failed') throw new Error(`the extraction failed: ${outcome.message}`);
  const after = await snapshot(memoryDir);
  return {
    memoryDir,
    written: [...after].filter(([p, hash]) => before.get(p) !== hash).map(([p]) => p).sort(),
    deleted: [...before.keys()].filter((p) => !after.has(p)).sort(),
    denied,
  };
}
