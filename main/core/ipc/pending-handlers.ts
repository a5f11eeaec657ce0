import { AppFailure } from '../../../common/result.js';
import type { Handlers } from './dispatcher.js';

/**
 * Channels whose engines are not wired into the composition root yet answer `unsupported` with a
 * message the UI shows. Each entry leaves this list when its engine lands.
 */
const pendingChannels = [
  'chat:send',
  'chat:stop',
  'chat:retry',
  'chat:answer-permission',
  'chat:undo-memory',
  'chat:dont-remember',
] as const;

export type PendingChannel = (typeof pendingChannels)[number];

export function createPendingHandlers(): Pick<Handlers, PendingChannel> {
  return Object.fromEntries(
    pendingChannels.map((channel) => [
      channel,
      () => {
        throw new AppFailure('unsupported', `This part of Strata (${channel}) is not available in this build yet.`);
      },
    ]),
  ) as unknown as Pick<Handlers, PendingChannel>;
}
