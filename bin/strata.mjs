#!/usr/bin/env node
// The `strata` command: the bundled CLI, resolved from this file so it works from any folder.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { existsSync } from 'node:fs';

const bundle = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'strata.mjs');
if (!existsSync(bundle)) {
  process.stderr.write('strata: the CLI is not built; run npm run build in the Strata folder\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(bundle).href);
await main(process.argv.slice(2));
