import { text, type ScriptedResponse, type WireRequest } from '../../test/fakes/anthropic-server/index.js';
import { evidenceByFile, greedyBest } from './score.js';
import type { LocomoConversation, LocomoQuestion } from './dataset.js';

/**
 * The perfect selector of the recall-locomo bench, as the fake Messages API's responder: it reads the
 * files named in the selector prompt it receives and picks, among those only, the ones holding the most
 * of the current question's evidence (greedily, at most 5). What the model path reaches with it is the
 * best any model could do with the list the product built. It also records each prompt's size.
 */
export class OracleSelector {
  private current: { conversation: LocomoConversation; question: LocomoQuestion; evidenceOf: Map<string, string[]> } | null = null;
  /** Tokens (chars ÷ 4) of each selector prompt received: system and messages. */
  readonly promptTokens: number[] = [];
  readonly listed: number[] = [];

  ask(conversation: LocomoConversation, question: LocomoQuestion): void {
    this.current = { conversation, question, evidenceOf: evidenceByFile(conversation) };
  }

  readonly respond = (request: WireRequest): ScriptedResponse => {
    const system = typeof request.system === 'string' ? request.system : (request.system ?? []).map((b) => String((b as { text?: unknown }).text ?? '')).join('\n');
    const user = (request.messages ?? [])
      .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => String((b as { text?: unknown }).text ?? '')).join('\n')))
      .join('\n');
    this.promptTokens.push(Math.ceil((system.length + user.length) / 4));
    const files = [...user.matchAll(/^- (?:\[[^\]]+\] )?(\S+\.md) \(/gm)].map((m) => m[1]!);
    this.listed.push(files.length);
    const c = this.current;
    const picked = c ? greedyBest(c.question, files, c.evidenceOf, 5) : [];
    return text(JSON.stringify({ selected_memories: picked }));
  };
}
