import { AUTOSAVE_REASON } from '../vault/index.js';
import { MemoryUsageStore } from '../auto-memory/index.js';
import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';
import { ProjectPaths } from '../paths/index.js';

type VaultChannel =
  | 'vault:list-files'
  | 'vault:read-file'
  | 'vault:write-file'
  | 'vault:create-memory'
  | 'vault:rename'
  | 'vault:mark-reviewed'
  | 'vault:delete'
  | 'vault:undo'
  | 'vault:search'
  | 'vault:memory-index'
  | 'vault:fix-index'
  | 'vault:history'
  | 'vault:read-version'
  | 'vault:restore'
  | 'vault:list-deleted'
  | 'vault:health'
  | 'vault:health-fix'
  | 'vault:health-undo'
  | 'vault:memory-links'
  | 'vault:search-page'
  | 'vault:match-memories'
  | 'vault:history-current';

/** The vault browser's channels, over the vault engine of the current root. */
export function createVaultHandlers(services: Services): Pick<Handlers, VaultChannel> {
  const files = async () => {
    const vault = services.vault();
    await vault.ready;
    return vault.files;
  };
  const store = () => MemoryUsageStore.forVault(services.vault().root, services.config.clock);
  /** Use-count bookkeeping after a file operation that already happened: a failure of it must not turn that into an error (its Undo token would be lost). */
  const counts = async (change: (usage: MemoryUsageStore) => Promise<void>) => {
    await change(store()).catch((error: unknown) => services.config.logger.warn('could not update memory use counts', { error: (error as Error).message }));
  };
  return {
    'vault:list-files': async () => services.team.withBadges((await files()).list()),
    'vault:read-file': async ({ path }) => (await files()).read(path),
    'vault:write-file': async ({ path, text, baseHash, autosave }) =>
      (await files()).write(path, text, { baseHash, reason: autosave ? AUTOSAVE_REASON : 'edit' }),
    'vault:create-memory': async ({ projectSlug, project, ...input }) => {
      const slug = projectSlug ?? (await ProjectPaths.resolve(services.vault().root, project!)).memorySlug;
      return (await files()).createMemory({ ...input, projectSlug: slug });
    },
    // A memory's use count follows it through a rename, is set aside by a delete and comes back with
    // its Undo (docs/memory.md#provenance-and-use).
    'vault:rename': async ({ path, newFileName }) => {
      const meta = await (await files()).rename(path, newFileName);
      await counts((usage) => usage.move([{ from: path, to: meta.path }]));
      return meta;
    },
    'vault:mark-reviewed': async ({ path }) => (await files()).markReviewed(path),
    'vault:delete': async ({ path }) => {
      const done = await (await files()).delete(path);
      await counts((usage) => usage.setAside(path));
      return done;
    },
    'vault:undo': async ({ undoToken }) => {
      const done = await (await files()).undoDelete(undoToken);
      await counts((usage) => usage.restore(done.restored));
      return done;
    },
    'vault:search': async ({ query, scope, type, limit }) => (await files()).search(query, { scope, type, limit }),
    'vault:memory-index': async ({ projectSlug, team }) => (await files()).memoryIndex(projectSlug, team),
    'vault:fix-index': async ({ projectSlug, team, fix, target }) => (await files()).fixIndex(projectSlug, team, fix, target),
    'vault:history': async ({ path }) => (await files()).timeline(path),
    'vault:history-current': async ({ path }) => (await files()).currentAuthor(path),
    'vault:read-version': async ({ path, hash }) => (await files()).readVersion(path, hash),
    'vault:restore': async ({ path, hash }) => (await files()).restore(path, hash),
    'vault:list-deleted': async () => (await files()).listDeleted(),
    'vault:health': async () => (await files()).health(),
    'vault:health-fix': async ({ kind, paths }) => (await files()).healthFix(kind, paths),
    'vault:health-undo': async ({ undoToken }) => (await files()).healthUndo(undoToken),
    'vault:memory-links': async ({ path }) => (await files()).memoryLinks(path),
    'vault:search-page': async ({ query, scope, type, limit, offset }) => (await files()).searchPage(query, { scope, type, limit, offset }),
    'vault:match-memories': async ({ query }) => ({ query, paths: (await files()).matchingMemories(query) }),
  };
}
