import path from 'node:path';
import { promises as fs } from 'node:fs';
import { AppFailure } from '../../../common/result.js';
import type { Logger } from '../../core/ports.js';
import { createVaultEngines, openCredentialStore } from '../../core/services.js';
import { ProjectPaths } from '../../core/paths/index.js';
import { detectTeamRepo } from '../../core/team-sync/index.js';
import { faultSeamFrom } from '../../core/team-sync/index.js';
import type { SyncReport } from '../../core/team-sync/index.js';
import { UsageError, type CliIo, type Command } from '../cli-io.js';
import { existingFolder, parseOptions, required, resolveVault, vaultAndJson } from '../options.js';

/** Warnings and errors to stderr as single lines; never file contents or tokens (the engine logs neither). */
function cliLogger(io: CliIo): Logger {
  const write = (level: string) => (message: string) => io.stderr(`${level}: ${message}`);
  return { info: () => undefined, warn: write('warning'), error: write('error') };
}

function printHuman(io: CliIo, repo: string, report: SyncReport, teamDir: string): void {
  io.stdout(`${repo}: pulled ${report.pulled.length}, pushed ${report.pushed.length}, pending ${report.pending.length}`);
  for (const key of report.conflicts) io.stdout(`conflict: ${key} (both versions kept; resolve it in Strata)`);
  for (const b of report.blocked) {
    for (const f of b.findings) io.stdout(`blocked: ${path.join(teamDir, b.key)} line ${f.line} matches ${f.rule}; not uploaded`);
  }
  for (const key of report.tooLarge) io.stdout(`too large: ${key} is over 250,000 bytes; not uploaded`);
  for (const n of report.invalidNames) io.stdout(`not synced: ${path.join(teamDir, n.key)}: the server refuses its name (${n.reason}); rename it`);
  for (const f of report.failed) io.stdout(`not synced: ${path.join(teamDir, f.key)}: ${f.reason}; ${f.advice}`);
  for (const w of report.warnings) io.stdout(`warning: ${w}`);
  if (report.error) io.stdout(`error: ${report.error.message}`);
}

/** docs/architecture.md `strata sync`: one pull + push, headless. */
export const syncCommand: Command = {
  name: 'sync',
  summary: 'pull and push the team memory of a project once',
  usage: 'strata sync --project DIR [--server URL] [--vault DIR] [--restore KEY]… [--confirm-deletions] [--json]',
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      project: { type: 'string' },
      server: { type: 'string' },
      ...vaultAndJson,
      // A deletion (local or a teammate's) is undoable for 30 days: put the file back, then sync.
      restore: { type: 'string', multiple: true },
      // More local deletions than the mass-delete guard lets through in one sync: the user means it.
      'confirm-deletions': { type: 'boolean', default: false },
    });
    const projectDir = await fs.realpath(await existingFolder(required(values.project, '--project DIR'), '--project'));
    const vaultRoot = await resolveVault(values.vault, io);
    const logger = cliLogger(io);
    const vault = await createVaultEngines({ root: vaultRoot, logger });
    const settings = vault.settings.get();
    const projectSettings = settings.projects[projectDir];
    const serverUrl = values.server ?? projectSettings?.teamServerUrl ?? settings.teamServerUrl;
    if (!serverUrl) throw new UsageError('no team server: pass --server URL or set teamServerUrl in the settings');
    try {
      new URL(serverUrl);
    } catch {
      throw new UsageError(`--server must be a URL, not ${serverUrl}`);
    }

    const envToken = io.env.STRATA_TEAM_TOKEN;
    const auth = envToken ? null : vault.teamAuth(serverUrl, (await openCredentialStore()).store);
    const getToken = envToken ? async () => envToken : () => auth!.getAccessToken();
    if (!(await getToken())) throw new UsageError(`not signed in to ${serverUrl}: sign in from Strata's settings, or set STRATA_TEAM_TOKEN`);

    // docs/architecture.md's order (the git remote, the setting only without one); the engine takes it as given.
    const paths = await ProjectPaths.resolve(vaultRoot, projectDir);
    const detected = await detectTeamRepo(paths.gitRoot ?? paths.projectDir, projectSettings?.teamRepo ?? null);
    if (!detected.ok) throw new UsageError(detected.error.message);
    const { engine, repo, teamDir } = await vault.teamSync({
      projectDir,
      serverUrl,
      teamRepo: detected.repo,
      getToken,
      fault: faultSeamFrom(io.env.STRATA_FAULT),
    }).catch((error: unknown) => {
      // No repository is bad usage here: the message says how to set one.
      throw error instanceof AppFailure && error.code === 'not_found' ? new UsageError(error.message) : error;
    });
    for (const key of values.restore ?? []) {
      try {
        const skipped = await engine.restoreDeleted(key);
        // The file is back either way; a full index (docs/memory.md#memory-index) leaves its line out.
        if (skipped) {
          const cap = skipped.limit === 'lines' ? `${skipped.maxLines} lines` : `${skipped.maxChars} characters`;
          io.stderr(`restored ${key}, not listed in MEMORY.md: the index is full (the agent reads only its first ${cap}); tidy memory to make room`);
        }
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
    // Ctrl-C or SIGTERM ends the run at once: the request in flight is aborted and the report says so;
    // everything not pushed stays pending for the next sync (state is written atomically at each step).
    let stopped = false;
    void io.stopped.then(() => {
      stopped = true;
      void engine.close();
    });
    const report = await engine.sync({ confirmDeletions: values['confirm-deletions'] });
    if (stopped) {
      io.stderr('stopped: the sync was interrupted; changes not yet pushed stay pending');
      return 130;
    }
    const deleted = await engine.listDeleted();
    if (values.json) {
      io.stdout(
        JSON.stringify({
          repo,
          pulled: report.pulled.length,
          pushed: report.pushed.length,
          conflicts: report.conflicts,
          // rule/line: the first finding (docs/architecture.md's shape); findings: all of them.
          blocked: report.blocked.map((b) => ({ path: path.join(teamDir, b.key), rule: b.rule, line: b.line, findings: b.findings })),
          tooLarge: report.tooLarge,
          invalidNames: report.invalidNames.map((n) => ({ path: path.join(teamDir, n.key), reason: n.reason })),
          failed: report.failed.map((f) => ({ path: path.join(teamDir, f.key), step: f.step, reason: f.reason, advice: f.advice })),
          pending: report.pending,
          heldDeletions: report.heldDeletions,
          warnings: report.warnings,
          deleted,
          error: report.error,
        }),
      );
    } else {
      printHuman(io, repo, report, teamDir);
      for (const d of deleted) io.stdout(`deleted (${d.by}, ${d.deletedAt}): ${d.key}; undo with --restore ${d.key}`);
    }
    return report.conflicts.length > 0 || report.blocked.length > 0 || report.error ? 1 : 0;
  },
};
