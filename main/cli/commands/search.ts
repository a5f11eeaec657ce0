import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveMemoryConfig } from '../../../common/config.js';
import type { VaultScope } from '../../../common/domain/vault.js';
import { ProjectPaths } from '../../core/paths/index.js';
import { systemClock, type Logger } from '../../core/ports.js';
import { SettingsStore } from '../../core/settings/index.js';
import { Vault } from '../../core/vault/index.js';
import { defaultAppDataDir, VaultRootPointer } from '../../core/vault/index.js';
import { UsageError, type CliIo, type Command } from '../cli-io.js';

const scopes: VaultScope[] = ['instructions', 'session-notes', 'project-memory', 'team-memory', 'transcript'];

const stderrOf = (io: CliIo): Logger => {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    io.stderr(`${level}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  return { info: () => undefined, warn: write('warning'), error: write('error') };
};

async function isDirectory(dir: string): Promise<boolean> {
  return fs.stat(dir).then((s) => s.isDirectory(), () => false);
}

/**
 * `strata search --project DIR [--vault DIR] [--json] QUERY` (docs/architecture.md): the vault's full-text index
 * over the project's memories (auto and team), session notes, transcripts, its own CLAUDE.md files and
 * the user's.
 * The project is resolved to its slugs (docs/memory.md#where-things-live): slug(folder) for transcripts and notes,
 * slug(git root) for memory. Uses and refreshes the index cache; never watches.
 */
export const searchCommand: Command = {
  name: 'search',
  summary: 'full-text search over memories, session notes, instructions and transcripts',
  usage: 'strata search --project DIR [--vault DIR] [--scope SCOPE] [--type TYPE] [--limit N] [--json] QUERY',
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        project: { type: 'string' },
        vault: { type: 'string' },
        scope: { type: 'string' },
        type: { type: 'string' },
        limit: { type: 'string', default: '20' },
        json: { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    const query = positionals.join(' ').trim();
    if (!values.project) throw new UsageError('--project DIR is required');
    if (!query) throw new UsageError('give a QUERY to search for');
    if (!(await isDirectory(values.project))) throw new UsageError(`--project: no such folder: ${values.project}`);
    if (values.scope !== undefined && !scopes.includes(values.scope as VaultScope)) {
      throw new UsageError(`--scope must be one of ${scopes.join(', ')}`);
    }
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError(`--limit must be 1–1000, not ${values.limit}`);

    const root = values.vault ? path.resolve(values.vault) : (await new VaultRootPointer(defaultAppDataDir(io.env)).read()).root;
    if (!(await isDirectory(root))) throw new UsageError(`--vault: no such folder: ${root}`);
    const realRoot = await fs.realpath(root);
    const logger = stderrOf(io);
    const settings = SettingsStore.forVault(realRoot, logger);
    await settings.load();
    const project = await ProjectPaths.resolve(realRoot, values.project);
    const vault = new Vault({
      root: realRoot,
      clock: systemClock,
      logger,
      config: () => resolveMemoryConfig(settings.get().memory),
      watch: false,
    });
    // The project's own CLAUDE.md files are searched with it (`@projects/<slug(folder)>/…`).
    await vault.setProjects([{ path: project.projectDir }]);
    await vault.open();
    try {
      const hits = vault.search(query, {
        projects: [...new Set([project.projectSlug, project.memorySlug])],
        scope: values.scope as VaultScope | undefined,
        type: values.type,
        limit,
      });
      if (values.json) {
        const results = hits.map(({ path: p, scope, type, title, line, snippet, score }) => ({ path: p, scope, type, title, line, snippet, score }));
        io.stdout(JSON.stringify({ results }));
      } else if (hits.length === 0) {
        io.stdout(`no results for "${query}"`);
      } else {
        for (const h of hits) io.stdout(`${h.path}:${h.line}  ${h.title} [${h.scope}${h.type ? `, ${h.type}` : ''}]\n    ${h.snippet}`);
      }
    } finally {
      await vault.close();
    }
    return 0;
  },
};
