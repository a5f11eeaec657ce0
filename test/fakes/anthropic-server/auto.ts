import type { ScriptedResponse } from './script.js';
import type { WireBlock, WireRequest } from './validate.js';

/**
 * Auto-mode responders for e2e tests and benches: the answer reacts to the request. `echo` repeats
 * the newest user text; a prompt containing `[[write PATH]]CONTENT` calls Write once, and after a
 * tool result the model ends its turn.
 */
export function echoResponder(request: WireRequest): ScriptedResponse {
  const last = request.messages?.at(-1);
  const blocks: WireBlock[] = !last ? [] : typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  if (blocks.some((b) => b.type === 'tool_result')) return { kind: 'message', content: [{ type: 'text', text: 'Done.' }] };
  const userText = blocks.filter((b) => b.type === 'text').map((b) => String(b.text)).join('\n');
  const write = /\[\[write ([^\]]+)\]\]([\s\S]*)/.exec(userText);
  if (write) {
    return { kind: 'message', content: [{ type: 'tool_use', name: 'Write', input: { file_path: write[1]!, content: write[2]! } }] };
  }
  return { kind: 'message', content: [{ type: 'text', text: `Echo: ${userText || '(no text)'}` }] };
}
