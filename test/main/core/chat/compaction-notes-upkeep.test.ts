import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER } from '../../../../main/core/compact/index.js';
import { DEFAULT_NOTES_TEMPLATE, parseSections } from '../../../../main/core/session-memory/index.js';
import { text, toolCalls } from '../../../fakes/anthropic-server/index.js';
import { expectAllAccepted } from './chat-fixture.js';
import { closeLoop, fillContext, isNotesFork, isSummarizer, lastUserText, loop, NOTES_PROMPT, WORKLOG_LINE } from './compaction-loop-fixture.js';

/**
 * docs/memory.md#session-notes through the real chat loop, the real SDK and the strict fake API: the notes fill in by
 * themselves, and when the context passes the threshold the conversation is compacted — from the notes
 * with no model call, or by the summarizer with the fallback reason shown — and goes on.
 */

afterEach(closeLoop);

describe('session notes kept in shape on the chat loop', () => {
  it('asks to condense 5 MB of notes on the next update and cuts each section at 8,000 characters in the summary', async () => {
    const l = await loop();
    for (let i = 0; i < 2; i++) await l.turn();
    const line = `${'The parser keeps a stack of open blocks and pops it at each close. '.repeat(2)}\n`;
    const huge = parseSections(DEFAULT_NOTES_TEMPLATE)
      .sections.map((s) => `${s.raw.trimEnd()}\n${s.title === 'Worklog' || s.title === 'Learnings' ? line.repeat(19_000) : line}\n`)
      .join('');
    expect(huge.length).toBeGreaterThan(5_000_000);
    await fs.writeFile(l.s.notesPath, huge);
    const sent = l.f.fake.requests.length;
    await l.turn();
    const update = l.f.fake.requests.slice(sent).find((r) => lastUserText(r.body).includes(NOTES_PROMPT))!;
    const prompt = lastUserText(update.body);
    expect(prompt).toMatch(/the notes file is about \d+ tokens, \d+ over the 12000-token limit/);
    expect(prompt).toMatch(/- "# Worklog" is about \d+ tokens \(limit: 2000\)/);
    expect(prompt).toMatch(/- "# Learnings" is about \d+ tokens \(limit: 2000\)/);
    expect(prompt).not.toContain('"# Current State" is about');
    // The 5 MB are not sent: the oversized sections are cut in the prompt, with a note.
    expect(prompt.length).toBeLessThan(60_000);
    expect(prompt.match(/\[… cut from this prompt only/g)).toHaveLength(2);

    const divider = l.divider();
    await l.f.call('chat:compact', { project: l.f.project, sessionId: l.sessionId });
    expect(await divider).toMatchObject({ path: 'session-notes', reason: null });
    await l.f.services.vault().chat.find(l.sessionId)!.idle();
    const summary = (await l.f.transcript(l.sessionId)).find((r) => r.isCompactSummary === true) as { message: { content: { text: string }[] } };
    const summaryText = summary.message.content[0]!.text;
    const sections = parseSections(summaryText).sections;
    expect(sections.map((s) => s.headerLine)).toEqual(parseSections(DEFAULT_NOTES_TEMPLATE).sections.map((s) => s.headerLine));
    for (const s of sections) expect(s.body.split(TRUNCATION_MARKER)[0]!.length).toBeLessThanOrEqual(8_000);
    expect(summaryText).toContain(`the complete session notes are in ${l.s.notesPath}`);
    expect(parseSections(summaryText).sections.find((s) => s.title === 'Worklog')!.body).toContain(TRUNCATION_MARKER);
    await l.turn('Go on with the parser.');
    expect(JSON.stringify(l.f.fake.requests.at(-1)!.body).length).toBeLessThan(300_000);
    expectAllAccepted(l.f.fake);
  });

  it('puts back headers removed by hand on the next update', async () => {
    const l = await loop();
    for (let i = 0; i < 2; i++) await l.turn();
    const notes = await fs.readFile(l.s.notesPath, 'utf8');
    const learnings = '_What worked, what did not, what to avoid; nothing already said in another section_\n';
    expect(notes).toContain(`# Learnings\n${learnings}`);
    const stripped = notes.replace('# Current State\n', '').replace('# Worklog\n', '').replace(learnings, '');
    await fs.writeFile(l.s.notesPath, stripped);
    await l.turn();
    const restored = await fs.readFile(l.s.notesPath, 'utf8');
    expect(parseSections(restored).sections.map((s) => s.headerLine)).toEqual(parseSections(DEFAULT_NOTES_TEMPLATE).sections.map((s) => s.headerLine));
    // A description line removed by hand comes back under its header too (docs/memory.md#session-notes: headers and description lines are kept).
    expect(restored).toContain(`# Learnings\n${learnings}`);
    expect(restored).toContain('- step 1: read the parser');
    expectAllAccepted(l.f.fake);
  });

  it('lets the notes fork Edit only the notes file: anything else is refused with a message the model sees', async () => {
    const l = await loop();
    const elsewhere = path.join(l.f.project, 'parser-notes.md');
    l.f.fake.enqueue(text('Answer 1: the parser keeps a stack of open blocks.'));
    await l.turn();
    // The next update tries a Write in the project, an Edit of another file, and the allowed Edit.
    l.f.fake.enqueue(text('Answer 2: nested blocks push onto the stack.'));
    l.f.fake.enqueue(
      toolCalls([
        { name: 'Write', input: { file_path: elsewhere, content: 'sneaky' } },
        { name: 'Edit', input: { file_path: path.join(l.f.project, 'CLAUDE.md'), old_string: 'a', new_string: 'b' } },
        { name: 'Edit', input: { file_path: l.s.notesPath, old_string: WORKLOG_LINE, new_string: `${WORKLOG_LINE}- tried other files\n` } },
      ]),
    );
    await l.turn();
    const results = l.f.fake.requests.map((r) => r.body).filter((b) => isNotesFork(b) && lastUserText(b).includes('tool_result')).at(-1)!;
    const denial = `only Edit on ${l.s.notesPath} is allowed`;
    expect(JSON.stringify(results.messages!.at(-1)).split(denial)).toHaveLength(3);
    await expect(fs.stat(elsewhere)).rejects.toThrow();
    await expect(fs.stat(path.join(l.f.project, 'CLAUDE.md'))).rejects.toThrow();
    expect(await fs.readFile(l.s.notesPath, 'utf8')).toContain('- tried other files');
    expectAllAccepted(l.f.fake);
  });

  it('applies a threshold changed in settings at once, without a restart: the meter and the compaction agree', async () => {
    const l = await loop({ restart: false });
    await fillContext(l);
    const divider = l.divider();
    await l.turn('Go on with the parser.');
    expect(await divider).toMatchObject({ path: 'session-notes', reason: null });
    expectAllAccepted(l.f.fake);
  });

  it('applies session-notes numbers changed in settings at once, without a restart', async () => {
    const l = await loop({ restart: false, sessionMemory: { minTokensToInit: 1_000_000 } });
    for (let i = 0; i < 3; i++) await l.turn();
    expect(l.s.updates).toBe(0);
  });

  it('compacts in the middle of a turn whose tool results pass the threshold, before the next request, and the turn goes on', async () => {
    const l = await loop();
    for (let i = 0; i < 3; i++) await l.turn();
    const meter = (await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId })).context;
    expect(meter.used).toBeLessThan(meter.threshold);
    // About 20,000 tokens in one tool result: the context passes the 32,000-token threshold inside the turn.
    l.s.bigFile = path.join(l.f.project, 'big.txt');
    await fs.writeFile(l.s.bigFile, 'The parser pushes every opened block on its stack and pops it when the block closes.\n'.repeat(720));
    const sent = l.f.fake.requests.length;
    const divider = l.divider();
    await l.turn('Read the big file and tell me what it says about blocks.');
    expect((await divider).tokensBefore).toBeGreaterThanOrEqual(32_000);
    const main = l.f.fake.requests.slice(sent).filter((r) => !isNotesFork(r.body) && !isSummarizer(r.body));
    // The question, then the request after the tool result: that one already went out compacted.
    expect(main).toHaveLength(2);
    const after = JSON.stringify(main[1]!.body.messages);
    expect(after).not.toContain('Question 1:');
    // The summary and the file just read (re-attached after a summarizer compaction) carry the turn on.
    expect(after).toContain('Primary request: explain the parser.');
    expect(after).toContain(`<file path=\\"${l.s.bigFile}\\">`);
    const items = (await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId })).items;
    const divided = items.findIndex((i) => i.kind === 'compaction');
    expect(divided).toBeGreaterThan(items.findIndex((i) => i.kind === 'tool'));
    expect(items.at(-1)).toMatchObject({ kind: 'assistant', text: expect.stringContaining('Answer 4:') });
    expectAllAccepted(l.f.fake);
  });

  it('stops auto-compacting after three failures in a row, and the conversation goes on', async () => {
    const l = await loop({ sessionMemory: { minTokensToInit: 1_000_000 } });
    l.s.summary = '';
    await fillContext(l);
    for (let i = 0; i < 4; i++) await l.turn('Go on with the parser.');
    expect(l.f.fake.requests.filter((r) => isSummarizer(r.body))).toHaveLength(3);
    const view = await l.f.call('chat:open-session', { project: l.f.project, sessionId: l.sessionId });
    const failures = view.items.filter((i) => i.kind === 'notice' && i.text.startsWith('Compaction failed'));
    expect(failures).toHaveLength(3);
    expect(view.items.some((i) => i.kind === 'compaction')).toBe(false);
    expectAllAccepted(l.f.fake);
  });
});
