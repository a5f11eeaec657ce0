import path from 'node:path';
import { AppFailure } from '../../../common/result.js';
import { ProjectPaths } from '../paths/index.js';
import {
  collectMemories, exportFileName, memoriesMarkdown, memoriesZip, previewNotesAt, previewPaste, writeImport, type ImportGuard,
} from '../portability/index.js';
import { vaultSecretScan } from '../secrets/index.js';
import type { Services } from '../services.js';
import type { Handlers } from './dispatcher.js';

type PortabilityChannel = 'memory:import-paste-preview' | 'memory:import-notes-preview' | 'memory:import-write' | 'memory:export';

/** A reading problem (not a folder, a damaged zip) is the user's input, not a bug: a clear error. */
const asInputError = (error: unknown): never => {
  if (error instanceof AppFailure) throw error;
  throw new AppFailure('invalid_request', (error as Error).message);
};

/** Memory import and export (docs/memory-upkeep.md), over the current vault. */
export function createPortabilityHandlers(services: Services): Pick<Handlers, PortabilityChannel> {
  const now = () => services.config.clock.now();
  const vaultFor = async (project: string) => {
    const vault = services.vault();
    await vault.ready;
    return { files: vault.files, memorySlug: (await ProjectPaths.resolve(vault.root, project)).memorySlug };
  };
  // Imports are scanned like any agent write: the vault's rules and its "Not a secret" list (docs/memory.md#secret-scan).
  const guard = (): ImportGuard => {
    const vault = services.vault();
    return { scan: vaultSecretScan(vault.root), shape: vault.files.memoryShape() };
  };
  return {
    'memory:import-paste-preview': async ({ source, text }) => {
      try {
        return previewPaste(text, source, now(), guard());
      } catch (error) {
        return asInputError(error);
      }
    },
    'memory:import-notes-preview': ({ path }) => {
      // Hidden folders (~/.ssh, ~/.config…) hold no notes to import and are not read from here.
      if (path.split(/[\\/]/).some((part) => part.startsWith('.') && part !== '.' && part !== '..')) {
        throw new AppFailure('invalid_request', 'Hidden folders are not imported; pick the notes folder itself');
      }
      return previewNotesAt(path, now(), guard()).catch(asInputError);
    },
    'memory:import-write': async ({ project, team, items }) => {
      const { files, memorySlug } = await vaultFor(project);
      return writeImport(files, { projectSlug: memorySlug, team }, items, vaultSecretScan(files.root));
    },
    'memory:export': async ({ project, format }) => {
      const vault = services.vault();
      await vault.ready;
      const slug = project ? (await ProjectPaths.resolve(vault.root, project)).memorySlug : null;
      const memories = await collectMemories(vault.files, slug);
      if (memories.length === 0) throw new AppFailure('not_found', project ? 'This project has no memories to export yet' : 'The vault has no memories to export yet');
      const fileName = exportFileName(project ? path.basename(project) : null, format, now());
      return format === 'zip'
        ? { fileName, base64: memoriesZip(memories, now()).toString('base64') }
        : { fileName, text: memoriesMarkdown(memories, now()) };
    },
  };
}
