import path from 'node:path';
import { stderrLogger } from '../../core/ports.js';
import { sessionNotesUpdater } from '../../core/services.js';
import { conversationChain } from '../../core/transcripts/index.js';
import { isMessageRecord, type TranscriptRecord } from '../../core/transcripts/index.js';
import { UsageError, type Command } from '../cli-io.js';
import { cliNotesFork, type MakeForkRunner } from '../agent-forks.js';
import { parseOptions, required, resolveVault, vaultAndJson } from '../options.js';
import { readTranscriptArg } from './compact.js';

export type { ForkRunnerRequest } from '../agent-forks.js';

/** The session id: the records' own, else the transcript's file name (`<sessionId>.jsonl`). */
export function sessionIdOf(records: readonly TranscriptRecord[], transcriptPath: string): string {
  const fromRecords = records.find(isMessageRecord)?.sessionId;
  return fromRecords ?? path.basename(transcriptPath).replace(/\.jsonl$/, '');
}

/**
 * `strata session-memory --transcript FILE --project DIR` (docs/architecture.md): one notes update through the
 * model, whatever the thresholds. Built with the fork runner factory so the composition root (and
 * tests) choose the model side.
 */
export function makeSessionMemoryCommand(makeFork: MakeForkRunner): Command {
  return {
    name: 'session-memory',
    summary: 'one session-notes update of a transcript through the model',
    usage: 'strata session-memory --transcript FILE --project DIR [--vault DIR] [--json]',
    async run(argv, io) {
      const { values } = parseOptions(argv, { transcript: { type: 'string' }, project: { type: 'string' }, ...vaultAndJson });
      const projectDir = path.resolve(required(values.project, '--project DIR'));
      const transcript = await readTranscriptArg(values.transcript);
      if (!transcript.records.some(isMessageRecord)) throw new UsageError(`the transcript has no messages: ${values.transcript}`);
      const vaultRoot = await resolveVault(values.vault, io);
      const sessionId = sessionIdOf(transcript.records, transcript.path);
      // The conversation as resumed: a rewound or edited transcript's abandoned branches are not in it.
      const records = conversationChain(transcript.records).records;
      const fork = await makeFork({ vaultRoot, projectDir, sessionId, records, io });
      const updater = await sessionNotesUpdater({ vaultRoot, logger: stderrLogger() });
      const outcome = await updater.updateNow({ sessionId, projectDir, records, fork });
      const report = { path: outcome.path, updated: outcome.updated, usage: outcome.usage, cacheHitRatio: outcome.cacheHitRatio };
      if (values.json) io.stdout(JSON.stringify(report));
      else io.stdout(`${outcome.updated ? 'updated' : 'unchanged'}: ${outcome.path} (cache hit ${Math.round(outcome.cacheHitRatio * 100)}%)`);
      return 0;
    },
  };
}

export const sessionMemoryCommand: Command = makeSessionMemoryCommand(cliNotesFork);
