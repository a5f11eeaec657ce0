import type Anthropic from '@anthropic-ai/sdk';
import { estimateMessagesTokens } from '../llm/index.js';

/** docs/memory.md#compaction: a summarizer refused as too long is retried at most this many times, each time shorter. */
export const MAX_PTL_RETRIES = 3;
/** Without a token gap in the error, this share of the oldest API rounds goes (at least one). */
const FALLBACK_DROP_SHARE = 0.2;
export const PTL_RETRY_MARKER = '[earlier conversation truncated for compaction retry]';

/** `prompt is too long: 212000 tokens > 200000 maximum` → 12000; null when the figures are not there. */
export function tokenGapOf(message: string): number | null {
  const m = /(\d[\d,]*)\s*tokens?\s*>\s*(\d[\d,]*)/i.exec(message);
  if (!m) return null;
  const gap = Number(m[1]!.replace(/,/g, '')) - Number(m[2]!.replace(/,/g, ''));
  return gap > 0 ? gap : null;
}

/**
 * `truncateHeadForPTLRetry` of docs/memory.md#compaction: drops the oldest API rounds (an assistant response with
 * the tool results and text that follow it; the opening user text is a round of its own) until what was
 * dropped is estimated at `gapTokens` or more — or 20 % of the rounds when the gap is unknown — keeping
 * at least one round. A round never splits, so no tool_use loses its tool_result. An earlier retry's
 * marker is stripped first; a head that now starts with the assistant gets a user marker before it.
 */
export function truncateHeadForRetry(messages: readonly Anthropic.MessageParam[], gapTokens: number | null): Anthropic.MessageParam[] {
  const unmarked = isMarker(messages[0]) ? messages.slice(1) : messages;
  const rounds = apiRounds(unmarked);
  if (rounds.length <= 1) return [...messages];
  let drop = 0;
  if (gapTokens === null) {
    drop = Math.max(1, Math.floor(rounds.length * FALLBACK_DROP_SHARE));
  } else {
    let dropped = 0;
    while (drop < rounds.length - 1 && dropped < gapTokens) dropped += estimateMessagesTokens(rounds[drop++]!);
  }
  drop = Math.min(drop, rounds.length - 1);
  const kept = rounds.slice(drop).flat();
  return kept[0]?.role === 'assistant' ? [{ role: 'user', content: PTL_RETRY_MARKER }, ...kept] : kept;
}

/** Splits before every assistant message: each round is a response and what follows it. */
function apiRounds(messages: readonly Anthropic.MessageParam[]): Anthropic.MessageParam[][] {
  const rounds: Anthropic.MessageParam[][] = [];
  for (const message of messages) {
    if (message.role === 'assistant' || rounds.length === 0) rounds.push([message]);
    else rounds[rounds.length - 1]!.push(message);
  }
  return rounds;
}

function isMarker(message: Anthropic.MessageParam | undefined): boolean {
  return message?.role === 'user' && message.content === PTL_RETRY_MARKER;
}
