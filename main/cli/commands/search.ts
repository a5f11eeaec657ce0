import type { VaultScope } from '../../../common/domain/vault.js';
import { ProjectPaths } from '../../core/paths/index.js';
import { UsageError, type Command } from '../cli-io.js';
import { cliVault } from '../cli-services.js';
import { existingFolder, parseOptions, required, vaultAndJson, wholeNumber } from '../options.js';

const scopes: VaultScope[] = ['instructions', 'session-notes', 'project-memory', 'team-memory', 'transcript'];

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
    const { values, positionals } = parseOptions(
      argv,
      { project: { type: 'string' }, scope: { type: 'string' }, type: { type: 'string' }, limit: { type: 'string', default: '20' }, ...vaultAndJson },
      { positionals: true },
    );
    const query = positionals.join(' ').trim();
    const projectFlag = required(values.project, '--project DIR');
    if (!query) throw new UsageError('give a QUERY to search for');
    const projectDir = await existingFolder(projectFlag, '--project');
    if (values.scope !== undefined && !scopes.includes(values.scope as VaultScope)) {
      throw new UsageError(`--scope must be one of ${scopes.join(', ')}`);
    }
    const limit = wholeNumber(values.limit, '--limit', 1, 1000) ?? 20;

    const vault = await cliVault(io, values.vault);
    const project = await ProjectPaths.resolve(vault.root, projectDir);
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
