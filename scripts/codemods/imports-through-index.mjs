#!/usr/bin/env node
// Routes every import of an engine (a folder under main/core) from outside it through the engine's index.ts,
// its public face (docs/architecture.md#what-may-import-what; the lint rule strata/engine-entry holds the line).
// For each `import { X } from '../vault/vault-root.js'` in main/ it makes sure main/core/vault/index.ts exports X
// (a value or a type, as the compiler sees it), creating index.ts when missing, and points the import at the
// index. Re-runnable: a second run finds nothing to do. `--check` lists what would change and exits 1 if any.
//
//   node scripts/codemods/imports-through-index.mjs [--check] [--root DIR]   (DIR: another checkout; default this one)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { importsOf, resolveImport, sourceFiles } from '../lint/import-graph.mjs';

const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENGINES = path.join(ROOT, 'main/core');
const check = process.argv.includes('--check');

const rel = (abs) => path.relative(ROOT, abs).split(path.sep).join('/');
/** The engine folder a file belongs to (absolute), or null for root files like services.ts and for code outside main/core. */
function engineDirOf(file) {
  const inside = path.relative(ENGINES, file);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
  const parts = inside.split(path.sep);
  return parts.length > 1 ? path.join(ENGINES, parts[0]) : null;
}
const indexOf = (engineDir) => path.join(engineDir, 'index.ts');
const specifierFrom = (fromFile, toFile) => {
  let s = path.relative(path.dirname(fromFile), toFile).split(path.sep).join('/').replace(/\.tsx?$/, '.js');
  if (!s.startsWith('.')) s = `./${s}`;
  return s;
};

const files = sourceFiles(ROOT, ['main']);
const program = ts.createProgram(files, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: false,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
  noEmit: true,
  skipLibCheck: true,
  types: ['node'],
});
const checker = program.getTypeChecker();

/** The symbol a module exports under `name`, followed through re-exports and aliases. */
function exportedSymbol(moduleFile, name) {
  const source = program.getSourceFile(moduleFile);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return null;
  const symbol = checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
  if (!symbol) return null;
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}
const isValue = (symbol) => Boolean(symbol.flags & ts.SymbolFlags.Value);

/** Per engine index: the names to add, by source file: Map<index, Map<sourceFile, Map<name, isValue>>>. */
const additions = new Map();
/** Per importer: text edits `{ start, end, text }`. */
const edits = new Map();
const manual = [];

for (const file of files) {
  const fromEngine = engineDirOf(file);
  const text = fs.readFileSync(file, 'utf8');
  for (const imp of importsOf(file, text)) {
    const target = resolveImport(file, imp.specifier);
    const engine = target && engineDirOf(target);
    if (!engine || engine === fromEngine || target === indexOf(engine)) continue;
    if (imp.dynamic || imp.names === null) {
      manual.push(`${rel(file)}: ${imp.dynamic ? 'import()' : 'default or * import'} of ${rel(target)}`);
      continue;
    }
    const index = indexOf(engine);
    for (const { imported } of imp.names) {
      const symbol = exportedSymbol(target, imported);
      if (!symbol) {
        manual.push(`${rel(file)}: ${rel(target)} does not export ${imported}`);
        continue;
      }
      const already = fs.existsSync(index) ? exportedSymbol(index, imported) : null;
      if (already) {
        if (already !== symbol) manual.push(`${rel(index)} already exports a different ${imported} than ${rel(target)}`);
        continue;
      }
      if (!additions.has(index)) additions.set(index, new Map());
      const bySource = additions.get(index);
      if (!bySource.has(target)) bySource.set(target, new Map());
      bySource.get(target).set(imported, isValue(symbol));
    }
    const spec = imp.node.moduleSpecifier;
    const list = edits.get(file) ?? [];
    list.push({ start: spec.getStart(imp.source) + 1, end: spec.getEnd() - 1, text: specifierFrom(file, index) });
    edits.set(file, list);
  }
}

/** New re-export lines for one index: values and types of one source file in one line each. */
function exportLines(index, bySource) {
  const lines = [];
  for (const [source, names] of [...bySource].sort(([a], [b]) => a.localeCompare(b))) {
    const values = [...names].filter(([, value]) => value).map(([n]) => n).sort();
    const types = [...names].filter(([, value]) => !value).map(([n]) => n).sort();
    const from = specifierFrom(index, source);
    if (values.length) lines.push(`export { ${values.join(', ')} } from '${from}';`);
    if (types.length) lines.push(`export type { ${types.join(', ')} } from '${from}';`);
  }
  return lines;
}

let changed = 0;
for (const [index, bySource] of additions) {
  const lines = exportLines(index, bySource);
  const exists = fs.existsSync(index);
  const engine = path.basename(path.dirname(index));
  const head = exists
    ? fs.readFileSync(index, 'utf8').replace(/\n*$/, '\n')
    : `/** The ${engine} engine's public face: what code outside main/core/${engine} imports. */\n`;
  console.log(`${exists ? 'extend' : 'create'} ${rel(index)}:\n  ${lines.join('\n  ')}`);
  if (!check) fs.writeFileSync(index, `${head}${lines.join('\n')}\n`);
  changed++;
}
for (const [file, list] of edits) {
  let text = fs.readFileSync(file, 'utf8');
  for (const edit of list.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  console.log(`rewrite ${rel(file)} (${list.length} import${list.length === 1 ? '' : 's'})`);
  if (!check) fs.writeFileSync(file, text);
  changed++;
}
if (manual.length) console.log(`\nLeft for a person (the codemod only moves named imports):\n  ${manual.join('\n  ')}`);
console.log(`\n${changed} file${changed === 1 ? '' : 's'} ${check ? 'would change' : 'changed'}.`);
if (check && changed) process.exitCode = 1;
