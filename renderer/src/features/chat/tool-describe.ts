import type { ChatItem } from '../../../../common/domain/chat';

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

/** What an expanded tool row shows instead of its raw JSON: one line, then the text it wrote, changed or found. */
export interface ToolDescription {
  /** "Wrote role.md · 4 lines", "Could not edit plan.md" — the sentence of the row. */
  line: string;
  /** A file's new text (Write, memory create, insert). */
  text?: { label: string; value: string };
  /** The replaced and the new text (Edit, memory str_replace). */
  change?: { before: string; after: string };
  /** What the tool gave back worth reading (a file's lines, the files found); errors read as a sentence. */
  result?: { label: string; value: string };
}

type Input = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const lines = (text: string) => {
  const n = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `${n} line${n === 1 ? '' : 's'}`;
};

/**
 * A file as the user knows it: a memory by its name in the memory folder (`role.md`, `team/deploy.md`),
 * a project file relative to the project, anything else by its file name — never the vault's slugged folders.
 */
export function shownPath(file: string, project: string): string {
  if (!file) return 'a file';
  const api = /^\/memories\/?(.*)$/.exec(file);
  if (api) return api[1] || 'the memory folder';
  const memory = file.lastIndexOf('/memory/');
  if (memory >= 0) return file.slice(memory + '/memory/'.length) || 'the memory folder';
  const root = project.endsWith('/') ? project : `${project}/`;
  if (file.startsWith(root)) return file.slice(root.length);
  return file.split(/[\\/]/).filter(Boolean).at(-1) ?? file;
}

/** Read's `cat -n` numbering taken off, so the file reads as the file. */
const unnumbered = (result: string) =>
  /^\s*\d+\t/.test(result) ? result.split('\n').map((l) => l.replace(/^\s*\d+\t/, '')).join('\n') : result;

/** The verbs of a row: past when done, "-ing" while running, the bare verb in "Could not …". */
interface Verb { past: string; doing: string; base: string }
const verb = (past: string, doing: string, base: string): Verb => ({ past, doing, base });
const WRITE = verb('Wrote', 'Writing', 'write');
const EDIT = verb('Edited', 'Editing', 'edit');
const READ = verb('Read', 'Reading', 'read');
const DELETE = verb('Deleted', 'Deleting', 'delete');

function sentence(item: ToolItem, v: Verb, what: string, detail?: string): string {
  if (item.status === 'running') return `${v.doing} ${what}…`;
  if (item.status === 'error') return `Could not ${v.base} ${what}`;
  if (item.status === 'denied') return `You declined: ${v.base} ${what}`;
  if (item.status === 'paused') return `Not saved: ${what}`;
  return detail ? `${v.past} ${what} · ${detail}` : `${v.past} ${what}`;
}

/** The result, with the absolute paths the model was given replaced by the names the user knows. */
function resultText(item: ToolItem, project: string, paths: string[]): string {
  let out = item.result ?? '';
  for (const p of paths) if (p) out = out.split(p).join(shownPath(p, project));
  return out.trim();
}

/** A failed call's reason as a calm sentence, or nothing to add for a plain success. */
function outcome(item: ToolItem, project: string, paths: string[]): ToolDescription['result'] {
  if (item.result === undefined || item.status === 'done' || item.status === 'running') return undefined;
  const why = resultText(item, project, paths);
  return why ? { label: 'Why', value: why } : undefined;
}

function describeFileTool(item: ToolItem, i: Input, project: string): ToolDescription | null {
  const file = str(i.file_path);
  const name = shownPath(file, project);
  const found = (label: string, value: string) => (item.status === 'done' && item.result !== undefined ? { label, value } : outcome(item, project, [file]));
  switch (item.name) {
    case 'Write':
      return { line: sentence(item, WRITE, name, lines(str(i.content))), text: { label: `Text of ${name}`, value: str(i.content) }, result: outcome(item, project, [file]) };
    case 'Edit':
      return {
        line: sentence(item, EDIT, name, i.replace_all === true ? 'every match' : undefined),
        change: { before: str(i.old_string), after: str(i.new_string) },
        result: outcome(item, project, [file]),
      };
    case 'Read': {
      const text = item.status === 'done' ? unnumbered(resultText(item, project, [file])) : '';
      return { line: sentence(item, READ, name, text ? lines(text) : undefined), result: found(`Text of ${name}`, text) };
    }
    case 'Delete':
      return { line: sentence(item, DELETE, name), result: outcome(item, project, [file]) };
    default:
      return null;
  }
}

function describeSearch(item: ToolItem, i: Input, project: string): ToolDescription | null {
  if (item.name !== 'Glob' && item.name !== 'Grep') return null;
  const where = str(i.path) ? ` in ${shownPath(str(i.path), project)}` : '';
  const what = item.name === 'Glob' ? `files matching ${str(i.pattern)}${where}` : `“${str(i.pattern)}”${where}`;
  const v = verb('Searched for', 'Searching for', 'search for');
  const value = resultText(item, project, [project]);
  return { line: sentence(item, v, what), result: item.result === undefined ? undefined : { label: item.status === 'done' ? 'Found' : 'Why', value } };
}

/** The API's memory tool (docs/memory.md): paths under `/memories`. */
function describeMemoryTool(item: ToolItem, i: Input, project: string): ToolDescription | null {
  if (item.name !== 'memory') return null;
  const name = shownPath(str(i.path), project);
  const why = outcome(item, project, []);
  switch (i.command) {
    case 'view': {
      const value = resultText(item, project, []);
      return { line: sentence(item, verb('Looked at', 'Looking at', 'look at'), name), result: item.status === 'done' ? { label: `Contents of ${name}`, value } : why };
    }
    case 'create':
      return { line: sentence(item, WRITE, name, lines(str(i.file_text))), text: { label: `Text of ${name}`, value: str(i.file_text) }, result: why };
    case 'str_replace':
      return { line: sentence(item, EDIT, name), change: { before: str(i.old_str), after: str(i.new_str) }, result: why };
    case 'insert':
      return { line: sentence(item, verb('Added to', 'Adding to', 'add to'), name, `after line ${String(i.insert_line)}`), text: { label: `Added to ${name}`, value: str(i.insert_text) }, result: why };
    case 'delete':
      return { line: sentence(item, DELETE, name), result: why };
    case 'rename':
      return { line: sentence(item, verb('Renamed', 'Renaming', 'rename'), `${shownPath(str(i.old_path), project)} to ${shownPath(str(i.new_path), project)}`), result: why };
    default:
      return null;
  }
}

/** A tool row in words; null for a tool it does not know (the row then shows its result as text). */
export function describeTool(item: ToolItem, project: string): ToolDescription | null {
  const i = (item.input ?? {}) as Input;
  return describeFileTool(item, i, project) ?? describeSearch(item, i, project) ?? describeMemoryTool(item, i, project);
}
