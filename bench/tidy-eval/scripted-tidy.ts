import path from 'node:path';
import { text, toolCalls, type ScriptedResponse, type WireRequest } from '../../test/fakes/anthropic-server/index.js';
import { parseManifest } from '../recall-eval/scripted-selector.js';
import { resolveRelative } from './fixture.js';

/**
 * The fake model's side of a tidy-up pass, scripted as the real one works through the prompt: it greps
 * the memory folder for relative dates, reads those files, then in one turn edits each date to the
 * absolute one (counted from the date the file was saved, from the prompt's list), deletes the later of
 * two memories with the same description, and deletes a memory a newer "… changed to …" one replaces;
 * last, one reason per file. It sees the prompt and the tool results only, never the labels.
 */

const RELATIVE = '\\b(yesterday|tomorrow|next (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday))\\b';

type Block = { type: string; text?: string; name?: string; content?: unknown };
const blocks = (m: { content: unknown }): Block[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Block[]));
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((b: Block) => (b.type === 'text' ? (b.text ?? '') : textOf(b.content))).join('\n') : '';

interface Plan {
  edits: { file: string; phrase: string; absolute: string }[];
  deletes: { file: string; reason: string }[];
}

function plan(dir: string, prompt: string, grepOutput: string): Plan {
  const manifest = parseManifest(prompt.split('## Memory files')[1]?.split('## When you are done')[0] ?? '');
  const savedAt = new Map(manifest.map((l) => [l.file, l.savedAt]));
  const edits: Plan['edits'] = [];
  for (const line of grepOutput.split('\n')) {
    const m = /^(.+?\.md):\d+:(.*)$/.exec(line);
    const phrase = m ? new RegExp(RELATIVE, 'i').exec(m[2]!)?.[0] : undefined;
    if (!m || !phrase) continue;
    const rel = path.relative(dir, m[1]!);
    const saved = savedAt.get(rel);
    if (saved !== undefined) edits.push({ file: m[1]!, phrase, absolute: `on ${resolveRelative(phrase, saved)}` });
  }
  const deletes: Plan['deletes'] = [];
  const byDescription = new Map<string, typeof manifest>();
  for (const l of manifest) byDescription.set(l.description, [...(byDescription.get(l.description) ?? []), l]);
  for (const group of byDescription.values()) {
    if (group.length < 2) continue;
    const [keep, ...rest] = [...group].sort((a, b) => a.savedAt - b.savedAt);
    for (const l of rest) deletes.push({ file: path.join(dir, l.file), reason: `duplicate of ${keep!.file}` });
  }
  for (const l of manifest) {
    const changed = /^(.*) changed to (.*)$/.exec(l.description);
    if (!changed) continue;
    for (const old of manifest) {
      if (old.description.startsWith(`${changed[1]}:`) && old.savedAt < l.savedAt) deletes.push({ file: path.join(dir, old.file), reason: `contradicted by ${l.file}` });
    }
  }
  return { edits, deletes };
}

export function scriptedTidyResponder(request: WireRequest): ScriptedResponse {
  const messages = request.messages ?? [];
  const prompt = textOf(messages[0]?.content);
  const dir = /long-term memory in `([^`]+)`/.exec(prompt)?.[1];
  if (!dir) return text('Nothing to tidy.');
  const assistants = messages.filter((m) => m.role === 'assistant');
  const lastTools = (assistants.at(-1) ? blocks(assistants.at(-1)!) : []).filter((b) => b.type === 'tool_use').map((b) => b.name);
  if (assistants.length === 0) return toolCalls([{ name: 'Grep', input: { pattern: RELATIVE, path: dir, output_mode: 'content', '-i': true } }]);
  const grepOutput = textOf(messages[2]?.content);
  const p = plan(dir, prompt, grepOutput);
  if (lastTools.includes('Grep') && p.edits.length > 0) return toolCalls([...new Set(p.edits.map((e) => e.file))].map((f) => ({ name: 'Read', input: { file_path: f } })));
  if (lastTools.includes('Grep') || lastTools.includes('Read')) {
    const calls = [
      ...p.edits.map((e) => ({ name: 'Edit', input: { file_path: e.file, old_string: e.phrase, new_string: e.absolute } })),
      ...p.deletes.map((d) => ({ name: 'Delete', input: { file_path: d.file } })),
    ];
    if (calls.length > 0) return toolCalls(calls);
  }
  const reasons = [
    ...p.edits.map((e) => `- ${path.basename(e.file)}: "${e.phrase}" is ${e.absolute.slice(3)}`),
    ...p.deletes.map((d) => `- ${path.basename(d.file)}: ${d.reason}`),
  ];
  return text(reasons.length ? reasons.join('\n') : 'Nothing to tidy.');
}
