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

/** The main agent's requests (the ones offering the Read tool), in order. */
export const mainRequests = (requests: ReceivedRequest[]): WireRequest[] =>
  requests.map((r) => r.body).filter((b) => (b.tools ?? []).some((t) => t.name === 'Read'));

/** The context both programs send at the head of the first user message. */
export const startContext = (request: WireRequest): Section[] => sections(textOf(blocksOf(request.messages?.[0])));

/** The instruction files the newest tool results carry (Claude Code appends its attachments to them). */
export const attachedToResults = (request: WireRequest): Section[] =>
  blocksOf(request.messages?.at(-1))
    .filter((b) => b.type === 'tool_result')
    .flatMap((b) => sections(typeof b.content === 'string' ? b.content : textOf((b.content as WireBlock[] | undefined) ?? [])));

/**
 * The model both programs talk to: `[[read PATH]]` in the newest prompt asks for one Read and
 * `[[write PATH]]CONTENT[[end]]` for one Write, `[[agent]]` for one subagent (Claude Code's Agent tool); after a
 * tool result, or for any other request (forks, side queries), it answers in plain text.
 */
export function oracleResponder(request: WireRequest): ScriptedResponse {
  const blocks = blocksOf(request.messages?.at(-1));
  if (blocks.some((b) => b.type === 'tool_result')) return { kind: 'message', content: [{ type: 'text', text: 'Done.' }] };
  const write = /\[\[write ([^\]]+)\]\]([\s\S]*?)\[\[end\]\]/.exec(textOf(blocks));
  if (write && (request.tools ?? []).some((t) => t.name === 'Write')) {
    return { kind: 'message', content: [{ type: 'tool_use', name: 'Write', input: { file_path: write[1]!, content: write[2]! } }], stopReason: 'tool_use' };
  }
  if (textOf(blocks).includes('[[agent]]') && (request.tools ?? []).some((t) => t.name === 'Agent')) {
    const input = { description: 'Look around', prompt: 'Report back in one word.', subagent_type: 'general-purpose' };
    return { kind: 'message', content: [{ type: 'tool_use', name: 'Agent', input }], stopReason: 'tool_use' };
  }
  const read = /\[\[read ([^\]]+)\]\]/.exec(textOf(blocks));
  if (read && (request.tools ?? []).some((t) => t.name === 'Read')) {
    return { kind: 'message', content: [{ type: 'tool_use', name: 'Read', input: { file_path: read[1]! } }], stopReason: 'tool_use' };
  }
  return { kind: 'message', content: [{ type: 'text', text: 'OK.' }] };
}
