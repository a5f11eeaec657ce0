// The repository's own import graph, read with the TypeScript parser: which file imports which, and how
// (type-only or not, static or `import()`). Shared by the lint fences (scripts/lint/fences-plugin.mjs) and the
// codemod that routes engine imports through index.ts (scripts/codemods/imports-through-index.mjs).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

/**
 * The file a relative specifier names, as TypeScript's bundler resolution finds it (`./x.js` → `x.ts`,
 * `./dir` → `dir/index.ts`); null for packages and for files that do not exist.
 */
export function resolveImport(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|mjs|jsx)$/, '');
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((ext) => stem + ext),
    ...SOURCE_EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ];
  for (const candidate of candidates) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not this candidate
    }
  }
  return null;
}

/** The names of `{ a, b as c, type D }` in an import or a re-export. */
const namesOf = (elements, typeOnly) =>
  elements.map((e) => ({ imported: (e.propertyName ?? e.name).text, local: e.name.text, typeOnly: typeOnly || e.isTypeOnly }));
/** `import type { … }`, or every name marked `type`: the edge carries types only. */
const allTypes = (typeOnly, names) => typeOnly || (names !== null && names.length > 0 && names.every((n) => n.typeOnly));

/**
 * Every import of one source text: `{ specifier, typeOnly, dynamic, names, node }` where `names` lists
 * `{ imported, local, typeOnly }` for named imports and re-exports (null for `* as`, default or side-effect
 * imports, which a codemod must leave alone). Without `withDynamic` only the top-level statements are read
 * (the graph's static edges), which skips walking the whole tree.
 */
export function importsOf(fileName, text, { withDynamic = true } = {}) {
  const kind = fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, withDynamic, kind);
  const found = [];
  const literal = (node) => (node && ts.isStringLiteral(node) ? node.text : null);
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const specifier = literal(statement.moduleSpecifier);
      const clause = statement.importClause;
      const typeOnly = Boolean(clause?.isTypeOnly);
      const named = clause && !clause.name && clause.namedBindings && ts.isNamedImports(clause.namedBindings);
      const names = named ? namesOf(clause.namedBindings.elements, typeOnly) : null;
      if (specifier) found.push({ specifier, typeOnly: allTypes(typeOnly, names), dynamic: false, names, node: statement, source });
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      const specifier = literal(statement.moduleSpecifier);
      const typeOnly = statement.isTypeOnly;
      const named = statement.exportClause && ts.isNamedExports(statement.exportClause);
      const names = named ? namesOf(statement.exportClause.elements, typeOnly) : null;
      if (specifier) found.push({ specifier, typeOnly: allTypes(typeOnly, names), dynamic: false, names, node: statement, source });
    } else if (ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)) {
      const specifier = literal(statement.moduleReference.expression);
      if (specifier) found.push({ specifier, typeOnly: statement.isTypeOnly, dynamic: false, names: null, node: statement, source });
    }
  }
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const specifier = literal(node.arguments[0]);
      if (specifier) found.push({ specifier, typeOnly: false, dynamic: true, names: null, node, source });
    }
    ts.forEachChild(node, visit);
  };
  if (withDynamic) visit(source);
  return found;
}

const SKIP_DIRS = new Set(['node_modules', 'dist', 'release', 'test-results', '.bench-tmp', '.git']);

/** Every TypeScript source file under `dirs` (absolute paths). */
export function sourceFiles(root, dirs) {
  const out = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(path.join(dir, entry.name));
      } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        out.push(path.join(dir, entry.name));
      }
    }
  };
  for (const dir of dirs) walk(path.join(root, dir));
  return out;
}

/**
 * The static edges out of each file on disk, read lazily and kept while the file's mtime holds (one lint run
 * reads each file once; an editor's long-lived ESLint sees an edit within a second).
 */
export class ImportGraph {
  #cache = new Map();

  /** Static edges from `file` (absolute): `{ target, typeOnly }`, dynamic `import()` left out. */
  edgesFrom(file) {
    const cached = this.#cache.get(file);
    // One lint run walks the same files from every importer: trust a file's edges for a second before stat-ing it again.
    if (cached && Date.now() - cached.checkedAt < 1000) return cached.edges;
    let stat;
    try {
      stat = fs.statSync(file);
    } catch {
      this.#cache.delete(file);
      return [];
    }
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) {
      cached.checkedAt = Date.now();
      return cached.edges;
    }
    const edges = staticEdges(file, fs.readFileSync(file, 'utf8'));
    this.#cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, edges, checkedAt: Date.now() });
    return edges;
  }

  /** A chain of static imports from `start` to `goal` (absolute paths, both ends included), or null. */
  pathBetween(start, goal) {
    const parent = new Map([[start, null]]);
    const queue = [start];
    while (queue.length) {
      const file = queue.shift();
      if (file === goal) {
        const chain = [];
        for (let at = file; at !== null; at = parent.get(at)) chain.unshift(at);
        return chain;
      }
      for (const edge of this.edgesFrom(file)) {
        if (parent.has(edge.target)) continue;
        parent.set(edge.target, file);
        queue.push(edge.target);
      }
    }
    return null;
  }
}

/** The static edges of one text: type-only imports count (a type cycle still ties two modules together). */
export function staticEdges(file, text) {
  const edges = [];
  for (const imp of importsOf(file, text, { withDynamic: false })) {
    const target = resolveImport(file, imp.specifier);
    if (target && !target.includes(`${path.sep}node_modules${path.sep}`)) edges.push({ target, typeOnly: imp.typeOnly });
  }
  return edges;
}
