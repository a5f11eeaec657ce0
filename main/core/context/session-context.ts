import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { MemoryConfig } from '../../../common/config.js';
import { truncateIndex, type IndexTruncation } from '../auto-memory/index.js';
import type { ProjectPaths } from '../paths/index.js';
import { loadInstructions, type LoadedInstructions } from './claude-md-loader.js';
import { stripFrontmatter, stripHtmlComments } from './markdown-text.js';
import { buildReminderBlock, type ReminderFile } from './reminder-block.js';

export interface SessionContextInput {
  paths: ProjectPaths;
  config: Pick<MemoryConfig, 'instructions' | 'autoMemory'>;
  today: Date | string;
  /** Real paths outside the project this project's user approved (docs/memory.md#instructions one-time approval). */
  approvedExternalIncludes?: Iterable<string>;
  /** Per-project switches (docs/architecture.md#the-agent): a switched-off layer is not injected. */
  autoMemory?: boolean;
  teamMemory?: boolean;
  /** The session notes when resuming (docs/memory.md#injection-order); the session-memory engine decides whether they say anything. */
  sessionNotes?: ReminderFile | null;
  homeDir?: string;
}

/** Everything injected at session start and after a compaction, plus what the UI shows about it. */
export interface SessionContext {
  /** The text of the first user message's `<system-reminder>` block. */
  reminder: string;
  instructions: LoadedInstructions;
  /** How each MEMORY.md was loaded (null when missing or switched off); `truncated` drives the warning. */
  autoIndex: (IndexTruncation & { path: string }) | null;
  teamIndex: (IndexTruncation & { path: string }) | null;
}

/** A MEMORY.md as the model sees it: frontmatter and block-level HTML comments go before the caps apply, as in Claude Code. */
async function readIndex(file: string, config: SessionContextInput['config']) {
  const raw = await fs.readFile(file, 'utf8').catch(() => null);
  if (raw === null) return null;
  const text = stripHtmlComments(stripFrontmatter(raw));
  if (text.trim() === '') return null;
  const caps = { maxLines: config.autoMemory.indexMaxLines, maxChars: config.autoMemory.indexMaxChars };
  return { ...truncateIndex(text, caps), path: file };
}

/**
 * Reads CLAUDE.md files and both MEMORY.md indexes (cut to their caps, docs/memory.md#auto-memory) and builds the reminder
 * block (docs/memory.md#instructions). Call at session start and again after every compaction: files are re-read each time.
 */
export async function buildSessionContext(input: SessionContextInput): Promise<SessionContext> {
  const { paths, config } = input;
  const [instructions, autoIndex, teamIndex] = await Promise.all([
    loadInstructions({
      vaultRoot: paths.vaultRoot,
      projectDir: paths.projectDir,
      homeDir: input.homeDir,
      approvedExternalIncludes: input.approvedExternalIncludes,
      maxIncludeDepth: config.instructions.maxIncludeDepth,
      largeFileChars: config.instructions.largeFileChars,
    }),
    input.autoMemory === false ? null : readIndex(path.join(paths.memoryDir, 'MEMORY.md'), config),
    input.teamMemory === false ? null : readIndex(path.join(paths.teamMemoryDir, 'MEMORY.md'), config),
  ]);
  const reminder = buildReminderBlock({
    instructions: instructions.files,
    autoMemoryIndex: autoIndex && { path: autoIndex.path, content: autoIndex.content },
    teamMemoryIndex: teamIndex && { path: teamIndex.path, content: teamIndex.content },
    sessionNotes: input.sessionNotes,
    today: input.today,
  });
  return { reminder, instructions, autoIndex, teamIndex };
}
