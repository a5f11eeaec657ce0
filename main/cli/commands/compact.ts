import path from 'node:path';
import { readVaultMemoryConfig } from '../../core/services.js';
import { readTranscriptFile, sessionMemoryCompact } from '../../core/compact/index.js';
import { loadCustomization, readNotes } from '../../core/session-memory/index.js';
import { conversationChain } from '../../core/transcripts/index.js';
import type { TranscriptRecord } from '../../core/transcripts/index.js';
import { UsageError, type Command } from '../cli-io.js';
import { parseOptions, required, resolveVault, vaultAndJson, wholeNumber } from '../options.js';

export async function readTranscriptArg(file: string | undefined): Promise<{ path: string; records: TranscriptRecord[] }> {
  const resolved = path.resolve(required(file, '--transcript FILE'));
  try {
    return { path: resolved, records: await readTranscriptFile(resolved) };
  } catch (error) {
    throw new UsageError(`cannot read the transcript ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * `strata compact` (docs/architecture.md): session-memory compaction of a transcript, no model call, read-only.
 * A fallback is a result, not a failure: `fallback` names it, nothing is kept, exit 0.
 */
export const compactCommand: Command = {
  name: 'compact',
  summary: 'session-memory compaction of a transcript (no model call, read-only)',
  usage: 'strata compact --transcript FILE --session-memory FILE [--last-summarized UUID] [--threshold N] [--vault DIR] [--json]',
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      transcript: { type: 'string' },
      'session-memory': { type: 'string' },
      'last-summarized': { type: 'string' },
      threshold: { type: 'string' },
      ...vaultAndJson,
    });
    const notesPath = path.resolve(required(values['session-memory'], '--session-memory FILE'));
    const threshold = wholeNumber(values.threshold, '--threshold', 1);
    const transcript = await readTranscriptArg(values.transcript);
    let notes: string | null;
    let unreadable = false;
    try {
      notes = await readNotes(notesPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new UsageError(`--session-memory is a folder: ${values['session-memory']}`);
      // Unreadable notes are docs/memory.md#compaction's "any error": the summarizer would run instead.
      notes = null;
      unreadable = true;
    }
    // A custom template in the vault counts for the "still the template" test (docs/architecture.md).
    const vaultRoot = await resolveVault(values.vault, io);
    const { template } = await loadCustomization(vaultRoot);
    const config = await readVaultMemoryConfig(vaultRoot);
    const compacted = sessionMemoryCompact({
      // The conversation as resumed: branches left by a rewind or an edit, and sidechains, drop out.
      records: conversationChain(transcript.records).records,
      notes,
      template,
      lastSummarizedMessageId: values['last-summarized'] ?? null,
      ...(threshold !== undefined ? { threshold } : {}),
      notesPath,
      transcriptPath: transcript.path,
      trigger: 'manual',
      config: config.compaction,
    });
    const outcome = unreadable && compacted.ok === false ? { ...compacted, reason: 'error' as const } : compacted;
    const report = outcome.ok
      ? {
          keptUuids: outcome.result.kept.map((r) => r.uuid!),
          tokensBefore: outcome.result.tokensBefore,
          tokensAfter: outcome.result.tokensAfter,
          fallback: null,
        }
      : { keptUuids: [] as string[], tokensBefore: outcome.tokensBefore, tokensAfter: outcome.tokensBefore, fallback: outcome.reason };
    if (values.json) {
      io.stdout(JSON.stringify(report));
    } else if (report.fallback) {
      io.stdout(`fallback: ${report.fallback} (the summarizer would run; nothing kept)`);
    } else {
      io.stdout(`kept ${report.keptUuids.length} records verbatim; ${report.tokensBefore} → ${report.tokensAfter} tokens`);
    }
    return 0;
  },
};

