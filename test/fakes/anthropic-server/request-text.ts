import type { WireRequest } from './validate.js';

/** The text of a request's last user message ('' when the last message is the assistant's): what a scripted responder answers to. */
export const lastUserText = (request: WireRequest): string => {
  const last = request.messages?.at(-1);
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string' ? last.content : last.content.map((b) => (b.type === 'text' ? String(b.text) : b.type)).join('\n');
};
