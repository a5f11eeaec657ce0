import { lastUserText, text, type ScriptedResponse, type WireRequest } from '../../fakes/anthropic-server/index.js';
import type { ChatFixture, OpenedChat } from './chat-fixture.js';

/** Answers one kind of request (the memory extractor's, a notes update's), or null to leave it to the main agent's script. */
export type SideResponder = (request: WireRequest) => ScriptedResponse | null;

/**
 * `chat.open` with the fake routing by who asks, for conversations where background requests run
 * between the main agent's turns: the main agent's answers come from `script`, in order; the
 * background extractor gets `extractor` ("Nothing to do." without it); `forks` may answer any other
 * request first (a session notes update).
 */
export async function openScripted(
  chat: ChatFixture,
  name: string,
  extractor?: SideResponder,
  forks?: SideResponder,
): Promise<OpenedChat & { script: (...responses: ScriptedResponse[]) => void }> {
  const main: ScriptedResponse[] = [];
  const opened = await chat.open(name, (r) => {
    const last = lastUserText(r);
    if (last.includes('You are the memory extractor') || (extractor && last.includes('tool_result') && JSON.stringify(r.messages).includes('You are the memory extractor'))) {
      return extractor?.(r) ?? text('Nothing to do.');
    }
    const fork = forks?.(r);
    if (fork) return fork;
    return main.shift() ?? text('(nothing scripted)');
  });
  return { ...opened, script: (...r: ScriptedResponse[]) => main.push(...r) };
}
