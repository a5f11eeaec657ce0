// Lint rules for the fences between our own folders (docs/architecture.md#what-may-import-what): which layer may
// import which, engines only through their index.ts, and no import cycles. They look at where an import lands
// (the resolved file), so `../x`, `./../x/index.js` and `import()` are judged alike.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ImportGraph, resolveImport } from './import-graph.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENGINES = 'main/core/';

const toRel = (abs) => path.relative(ROOT, abs).split(path.sep).join('/');
const under = (rel, folder) => rel === folder.replace(/\/$/, '') || rel.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

/** Every module specifier of the linted file, with the node to report on and whether it is a cycle edge. */
function eachImport(context, onImport) {
  const literal = (node) => (node && node.type === 'Literal' && typeof node.value === 'string' ? node.value : null);
  const staticImport = (node) => {
    const specifier = literal(node.source);
    if (specifier) onImport(specifier, node.source, { dynamic: false });
  };
  return {
    ImportDeclaration: staticImport,
    ExportNamedDeclaration: (node) => node.source && staticImport(node),
    ExportAllDeclaration: staticImport,
    TSImportEqualsDeclaration(node) {
      const specifier = literal(node.moduleReference?.expression);
      if (node.moduleReference?.type === 'TSExternalModuleReference' && specifier) {
        onImport(specifier, node.moduleReference.expression, { dynamic: false });
      }
    },
    ImportExpression(node) {
      const specifier = literal(node.source);
      if (specifier) onImport(specifier, node.source, { dynamic: true });
    },
    CallExpression(node) {
      if (node.callee.type !== 'Identifier' || node.callee.name !== 'require') return;
      const specifier = literal(node.arguments[0]);
      if (specifier) onImport(specifier, node.arguments[0], { dynamic: true });
    },
  };
}

/** The repo-relative file an import lands on (the resolved file, or the bare path when it does not exist yet). */
function landing(filename, specifier) {
  if (!specifier.startsWith('.')) return null;
  const resolved = resolveImport(filename, specifier);
  return toRel(resolved ?? path.resolve(path.dirname(filename), specifier));
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder imports, of ours, only itself and the folders it is allowed.' },
    schema: [
      {
        type: 'object',
        properties: {
          layers: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                folder: { type: 'string' },
                allow: { type: 'array', items: { type: 'string' } },
                message: { type: 'string' },
              },
              required: ['folder', 'message'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = toRel(context.filename);
    const mine = (context.options[0]?.layers ?? []).filter((layer) => under(file, layer.folder));
    if (!mine.length) return {};
    return eachImport(context, (specifier, node) => {
      const target = landing(context.filename, specifier);
      if (!target || target.startsWith('..') || under(target, 'node_modules')) return;
      for (const layer of mine) {
        const allowed = [layer.folder, ...(layer.allow ?? [])].some((f) => under(target, f));
        if (!allowed) context.report({ node, message: `${layer.message} (${target})` });
      }
    });
  },
};

/** `main/core/<engine>/…` → the engine's name; root files such as services.ts have none. */
const engineOf = (rel) => (rel.startsWith(ENGINES) ? (/^([^/]+)\//.exec(rel.slice(ENGINES.length))?.[1] ?? null) : null);

const engineEntry = {
  meta: {
    type: 'problem',
    docs: { description: "Code outside an engine imports it only through its index.ts, the engine's public face." },
    schema: [],
  },
  create(context) {
    const file = toRel(context.filename);
    const from = engineOf(file);
    return eachImport(context, (specifier, node) => {
      const target = landing(context.filename, specifier);
      const engine = target && engineOf(target);
      if (!engine || engine === from) return;
      const entry = `${ENGINES}${engine}/index`;
      if (target.replace(/\.(ts|tsx|js)$/, '') === entry) return;
      context.report({ node, message: `Import the ${engine} engine through ${entry}.ts, its public face (${target}).` });
    });
  },
};

const graph = new ImportGraph();

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No static import cycles, type-only imports included.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    return eachImport(context, (specifier, node, { dynamic }) => {
      if (dynamic || !specifier.startsWith('.')) return;
      const target = resolveImport(file, specifier);
      if (!target || target === file) return;
      const chain = graph.pathBetween(target, file);
      if (!chain) return;
      const shown = [file, ...chain].map(toRel).join(' → ');
      context.report({ node, message: `Import cycle: ${shown}. Move the shared part down a layer.` });
    });
  },
};

/** A property `ok` whose value or type is the literal `true` or `false`: the shape of an `{ok}` union. */
const isOkFlag = (node) => {
  const key = node.key;
  if (node.computed || !key || (key.type === 'Identifier' ? key.name : key.value) !== 'ok') return false;
  const value = node.type === 'Property' ? node.value : node.typeAnnotation?.typeAnnotation?.literal;
  return value?.type === 'Literal' && typeof value.value === 'boolean';
};

/**
 * docs/architecture.md#errors: an engine refuses by throwing `AppFailure`; `Result<T>` is the IPC boundary's
 * shape. Outside that boundary an engine neither uses `Result`/`ok`/`err` nor builds an `{ok: true|false}`
 * union of its own, except in the files listed as outcomes their callers branch on (option `outcomes`).
 */
const errorRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Engines throw AppFailure; Result values and {ok} unions only at the IPC boundary.' },
    schema: [
      {
        type: 'object',
        properties: { boundary: { type: 'string' }, outcomes: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { boundary = 'main/core/ipc', outcomes = [] } = context.options[0] ?? {};
    const file = toRel(context.filename);
    if (under(file, boundary)) return {};
    const reportOk = (node) => {
      if (!outcomes.includes(file) && isOkFlag(node)) {
        context.report({ node, message: 'An {ok} union outside the IPC boundary: throw AppFailure(code, message) instead (docs/architecture.md#errors).' });
      }
    };
    return {
      ImportDeclaration(node) {
        const target = landing(context.filename, node.source.value);
        if (target?.replace(/\.(ts|js)$/, '') !== 'common/result') return;
        for (const spec of node.specifiers) {
          const name = spec.type === 'ImportSpecifier' ? (spec.imported.name ?? spec.imported.value) : null;
          if (name === 'ok' || name === 'err' || name === 'Result') {
            context.report({ node: spec, message: `\`${name}\` is the IPC boundary's shape; an engine throws AppFailure(code, message) (docs/architecture.md#errors).` });
          }
        }
      },
      Property: reportOk,
      TSPropertySignature: reportOk,
    };
  },
};

/** A static method that makes an engine: `X.create(…)`, `X.forVault(…)`, `X.open(…)`. */
const FACTORY = /^(create|open|for[A-Z])/;

/**
 * docs/architecture.md#the-composition-root: a shell (the CLI) builds engines only through main/core/services.ts, so a
 * one-shot command reads the same settings, defaults and keychain as the app. It may call an engine's
 * functions, but neither `new` nor a static factory of a class it imported from main/core.
 */
const buildsThroughServices = {
  meta: {
    type: 'problem',
    docs: { description: 'A shell builds engines only through main/core/services.ts.' },
    schema: [],
  },
  create(context) {
    const fromEngines = new Set();
    const check = (node, callee) => {
      if (callee?.type === 'Identifier' && fromEngines.has(callee.name)) {
        context.report({ node, message: `Build ${callee.name} through main/core/services.ts (the composition root), not here.` });
      }
    };
    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type') return;
        const target = landing(context.filename, node.source.value);
        if (!target || !under(target, 'main/core') || target.replace(/\.(ts|js)$/, '') === 'main/core/services') return;
        for (const spec of node.specifiers) if (spec.importKind !== 'type') fromEngines.add(spec.local.name);
      },
      NewExpression: (node) => check(node, node.callee),
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || !FACTORY.test(callee.property.name ?? '')) return;
        check(node, callee.object);
      },
    };
  },
};

export default {
  meta: { name: 'strata-fences' },
  rules: { layers, 'engine-entry': engineEntry, 'no-cycle': noCycle, 'error-rule': errorRule, 'builds-through-services': buildsThroughServices },
};
