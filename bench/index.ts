// `npm run bench [-- NAME…]`: runs every `bench/*.bench.ts` (or the named ones) and prints one JSON line
// per metric on stdout (docs/architecture.md#benchmarks). Progress and errors go to stderr; the run exits 0
// unless a bench crashed.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Bench } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();

if (wanted.length > 0 && files.length === 0) {
  console.error(`bench: no bench named ${wanted.join(', ')}`);
  process.exit(2);
}

let crashed = false;
for (const file of files) {
  const bench = (await import(pathToFileURL(path.join(here, file)).href)).default as Bench;
  console.error(`bench: ${bench.name}…`);
  try {
    const result = await bench.run();
    if ('skipped' in result) {
      process.stdout.write(`${JSON.stringify({ bench: bench.name, skipped: result.skipped })}\n`);
    } else {
      for (const l of result) process.stdout.write(`${JSON.stringify(l)}\n`);
    }
  } catch (error) {
    crashed = true;
    console.error(`bench: ${bench.name} failed: ${(error as Error).stack ?? error}`);
  }
}
process.exit(crashed ? 1 : 0);
