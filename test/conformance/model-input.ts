import type { ScriptedResponse } from '../fakes/anthropic-server/index.js';
import type { ReceivedRequest } from '../fakes/anthropic-server/server.js';
import type { WireBlock, WireMessage, WireRequest } from '../fakes/anthropic-server/validate.js';

/** One instruction file as either program shows it to the model: `Contents of <path> (<label>):`. */
export interface Section {
  path: string;
  label: string | null;
  content: string;
}

const HEADER = /(?:^|\n)Contents of (\/[^\n]*?)(?: \(([^()\n]*)\))?:\n\n/g;
const SECTION_END = /\n# (?:currentDate|sessionNotes|claudeMd)\n|\n\s*IMPORTANT: this context|\n\nThis context may or may not|\n<\/system-reminder>/;

/** Whitespace the two programs lay out differently (blank lines, trailing spaces) does not count. */
const tidy = (s: string) => s.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();

export function sections(text: string): Section[] {
  const heads = [...text.matchAll(HEADER)];
  return heads.map((m, i) => {
    const start = m.index! + m[0].length;
    const stop = i + 1 < heads.length ? heads[i + 1]!.index! : text.length;
    let body = text.slice(start, stop);
    const end = SECTION_END.exec(body);
    if (end) body = body.slice(0, end.index);
    return { path: m[1]!, label: m[2] ?? null, content: tidy(body) };
  });
}

export const blocksOf = (m: WireMessage | undefined): WireBlock[] =>
  !m ? [] : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;

export const textOf = (blocks: WireBlock[]): string =>
  blocks
    .filter((b) => b.type === 'text')
    .map((b) => String(b.text))
    .join('\n');

/** The newest user or assistant turn (newer Claude Code sends mid-conversation `system` turns too). */
export const lastTurn = (request: WireRequest): WireMessage | undefined => request.messages?.filter((m) => m.role !== 'system').at(-1);

/** The main agent's requests (the ones offering the Read tool), in order. */
export const mainRequests = (requests: ReceivedRequest[]): WireRequest[] =>
  requests.map((r) => r.body).filter((b) => (b.tools ?? []).some((t) => t.name === 'Read'));

/** The context both programs send at the head of the first user message. */
export const startContext = (request: WireRequest): Section[] => sections(textOf(blocksOf(request.messages?.[0])));

/** The instruction files the newest tool results carry (Claude Code appends its attachments to them). */
export const attachedToResults = (request: WireRequest): Section[] =>
  blocksOf(lastTurn(request))
    .filter((b) => b.type === 'tool_result')
    .flatMap((b) => sections(typeof b.content === 'string' ? b.content : textOf((b.content as WireBlock[] | undefined) ?? [])));

const WRITE = /\[\[write ([^\]]+)\]\]([\s\S]*?)\[\[end\]\]/g;
const REWRITE = /\[\[rewrite ([^\]]+)\]\]([\s\S]*?)\[\[end\]\]/g;

/**
 * The model both programs talk to: `[[read PATH]]` in the newest prompt asks for one Read;
 * `[[write PATH]]CONTENT[[end]]` for a Write and `[[rewrite PATH]]CONTENT[[end]]` for a Read of PATH then
 * a Write (neither program overwrites a file its agent has not read) — several of them in one prompt are
 * called together; `[[agent]]` asks for one subagent (Claude Code's Agent tool). After the tool results,
 * or for any other request (forks, side queries), it answers in plain text.
 */
export function oracleResponder(request: WireRequest): ScriptedResponse {
  const turns = request.messages?.filter((m) => m.role !== 'system') ?? [];
  const blocks = blocksOf(turns.at(-1));
  const can = (tool: string) => (request.tools ?? []).some((t) => t.name === tool);
  const use = (calls: [string, Record<string, unknown>][]): ScriptedResponse => ({
    kind: 'message',
    content: calls.map(([name, input]) => ({ type: 'tool_use', name, input })),
    stopReason: 'tool_use',
  });
  const done: ScriptedResponse = { kind: 'message', content: [{ type: 'text', text: 'Done.' }] };
  if (blocks.some((b) => b.type === 'tool_result')) {
    // After the Reads a rewrite asked for, its Writes; after anything else, the answer.
    const prompt = textOf(turns.filter((m) => m.role === 'user').flatMap((m) => blocksOf(m)));
    const read = new Set(blocksOf(turns.at(-2)).filter((b) => b.type === 'tool_use' && b.name === 'Read').map((b) => String((b.input as { file_path: string }).file_path)));
    const rewrites = [...prompt.matchAll(REWRITE)].filter((m) => read.has(m[1]!));
    return rewrites.length > 0 && can('Write') ? use(rewrites.map((m) => ['Write', { file_path: m[1]!, content: m[2]! }])) : done;
  }
  const text = textOf(blocks);
  const calls: [string, Record<string, unknown>][] = [];
  if (can('Write')) for (const m of text.matchAll(WRITE)) calls.push(['Write', { file_path: m[1]!, content: m[2]! }]);
  if (can('Read')) for (const m of text.matchAll(REWRITE)) calls.push(['Read', { file_path: m[1]! }]);
  if (calls.length > 0) return use(calls);
  if (text.includes('[[agent]]') && can('Agent')) {
    return use([['Agent', { description: 'Look around', prompt: 'Report back in one word.', subagent_type: 'general-purpose' }]]);
  }
  const read = /\[\[read ([^\]]+)\]\]/.exec(text);
  if (read && can('Read')) return use([['Read', { file_path: read[1]! }]]);
  return { kind: 'message', content: [{ type: 'text', text: 'OK.' }] };
}
