import { recordTokens } from '../main/core/compact/index.js';
import type { MessageRecord, TranscriptRecord } from '../main/core/transcripts/records.js';

/** The transcript size both compaction benches work on (docs/architecture.md#benchmarks). */
export const TARGET_TOKENS = 200_000;

/**
 * A Claude Code-shaped conversation of about 200,000 estimated tokens: questions, thinking, tool rounds
 * (parallel calls stored one record each under one `message.id`), answers. The last record carries the
 * usage a real response would have reported.
 */
export function generateTranscript(cwd: string, sessionId: string): TranscriptRecord[] {
  const records: MessageRecord[] = [];
  let n = 0;
  let tokens = 0;
  const push = (type: 'user' | 'assistant', content: MessageRecord['message']['content'], id?: string) => {
    n++;
    const record: MessageRecord = {
      type,
      uuid: `uuid-${n}`,
      parentUuid: n > 1 ? `uuid-${n - 1}` : null,
      sessionId,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
      cwd,
      message: { role: type, content, ...(id ? { id } : {}) },
    };
    records.push(record);
    tokens += recordTokens(record);
  };
  for (let turn = 0; tokens < TARGET_TOKENS; turn++) {
    push('user', `Question ${turn}: ${'please look at the parser and explain. '.repeat(20)}`);
    const id = `msg_${turn}`;
    push('assistant', [{ type: 'thinking', thinking: 'Plan the reads. '.repeat(30), signature: 'sig' }], id);
    const calls = 1 + (turn % 3);
    for (let c = 0; c < calls; c++) push('assistant', [{ type: 'tool_use', id: `toolu_${turn}_${c}`, name: 'Read', input: { file_path: `${cwd}/src/f${c}.ts` } }], id);
    for (let c = 0; c < calls; c++) push('user', [{ type: 'tool_result', tool_use_id: `toolu_${turn}_${c}`, content: 'const x = 1;\n'.repeat(150) }]);
    push('assistant', [{ type: 'text', text: 'Here is what I found. '.repeat(40) }], `msg_${turn}_answer`);
  }
  const last = records[records.length - 1]!;
  last.message.usage = { input_tokens: tokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } as MessageRecord['message']['usage'];
  return records;
}

/** Session notes with real content in every section (not the template), about 6,000 tokens. */
export function benchNotes(template: string): string {
  return template.replace(/^(# .*\n_.*_\n)/gm, (header: string) => `${header}${'Working on the parser: nested blocks, the stack, the error paths. '.repeat(30)}\n`);
}
