import type { Command } from './cli-io.js';

/**
 * One `strata` subcommand as the CLI knows it before loading it: `strata --help` lists these without
 * importing any engine, and `strata X` imports only X's module (its engines come with it), so a
 * scanner run per file or as a git hook does not pay for the agent, the vault or the sync server.
 */
export interface CommandEntry {
  name: string;
  /** The line in `strata --help`; a test holds it equal to the loaded command's own summary. */
  summary: string;
  /**
   * 'itself': the command watches `io.signal` (or `io.stopped`) and ends cleanly on the first SIGINT or
   * SIGTERM, saving its state; the CLI waits for it. Otherwise the command has nothing to save midway
   * (it only reads, or writes atomically at the end) and the CLI ends it at the first signal.
   */
  stops?: 'itself';
  load(): Promise<Command>;
}

/** Subcommands of `strata`; each issue adds its own (docs/architecture.md#the-strata-command). */
export const commandEntries: CommandEntry[] = [
  { name: 'host', summary: 'serve the app to a browser tab on 127.0.0.1', stops: 'itself', load: async () => (await import('./commands/host.js')).hostCommand },
  { name: 'ask', summary: 'one non-interactive turn of the main agent', stops: 'itself', load: async () => (await import('./commands/ask.js')).askCommand },
  {
    name: 'scan-secrets',
    summary: 'scan files and folders for secrets (folders recursively, symlinks not followed)',
    load: async () => (await import('./commands/scan-secrets.js')).scanSecretsCommand,
  },
  { name: 'import', summary: "bring Claude Code's transcripts and memory folders into the vault", load: async () => (await import('./commands/import.js')).importCommand },
  {
    name: 'server',
    summary: 'run the team memory sync server, or administer its users and tokens',
    stops: 'itself',
    load: async () => (await import('./commands/server.js')).serverCommand,
  },
  { name: 'search', summary: 'full-text search over memories, session notes, instructions and transcripts', load: async () => (await import('./commands/search.js')).searchCommand },
  { name: 'recall', summary: 'show which memories a chat turn would recall for a question, and why', load: async () => (await import('./commands/recall.js')).recallCommand },
  { name: 'sync', summary: 'pull and push the team memory of a project once', stops: 'itself', load: async () => (await import('./commands/sync.js')).syncCommand },
  { name: 'extract', summary: 'one memory-extraction pass through the model over a whole transcript', load: async () => (await import('./commands/extract.js')).extractCommand },
  { name: 'compact', summary: 'session-memory compaction of a transcript (no model call, read-only)', load: async () => (await import('./commands/compact.js')).compactCommand },
  { name: 'session-memory', summary: 'one session-notes update of a transcript through the model', load: async () => (await import('./commands/session-memory.js')).sessionMemoryCommand },
  {
    name: 'memory',
    summary: 'import memory (a pasted ChatGPT/Claude answer, notes, a zip) or export it (zip or markdown)',
    load: async () => (await import('./commands/memory.js')).memoryCommand,
  },
];
