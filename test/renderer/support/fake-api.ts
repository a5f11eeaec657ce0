import {
  eventChannelNames,
  invokeChannelNames,
  type EventChannel,
  type InvokeChannel,
  type PayloadOf,
  type RequestOf,
  type ResponseOf,
  type StrataApi,
} from '../../../common/ipc/contract';
import { err, ok, type Result } from '../../../common/result';
import { installBridge } from '../../../renderer/src/bridge';
import { restartStore } from '../../../renderer/src/store';

type Answer<C extends InvokeChannel> = ResponseOf<C> | Result<ResponseOf<C>>;
/** A handler may answer later (a promise), as main does over IPC. */
export type FakeHandlers = { [C in InvokeChannel]?: (request: RequestOf<C>) => Answer<C> | Promise<Answer<C>> };

/**
 * The renderer's fake of main, derived from the contract like the preload is: every channel exists;
 * the ones a test does not script answer `unsupported`. `emit` pushes an event as main would.
 */
export function createFakeApi(handlers: FakeHandlers) {
  const calls: { channel: InvokeChannel; request: unknown }[] = [];
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const invoke = Object.fromEntries(
    invokeChannelNames.map((channel) => [
      channel,
      async (request: unknown) => {
        calls.push({ channel, request });
        const handler = handlers[channel] as ((r: unknown) => unknown) | undefined;
        if (!handler) return err('unsupported', `${channel} is not scripted in this test`);
        const value = await handler(request);
        return value && typeof value === 'object' && 'ok' in value ? value : ok(value);
      },
    ]),
  ) as StrataApi['invoke'];
  const on = Object.fromEntries(
    eventChannelNames.map((channel) => [
      channel,
      (listener: (payload: unknown) => void) => {
        const set = listeners.get(channel) ?? new Set();
        listeners.set(channel, set);
        set.add(listener);
        return () => {
          set.delete(listener);
        };
      },
    ]),
  ) as StrataApi['on'];
  return {
    api: { invoke, on } satisfies StrataApi,
    calls,
    emit<E extends EventChannel>(channel: E, payload: PayloadOf<E>) {
      for (const l of listeners.get(channel) ?? []) l(payload);
    },
  };
}

/**
 * Starts the renderer against `api` as its entry does (one transport, installed at start) with the store as
 * a fresh start makes it: each test, and each restart within one, gets a new app without reloading modules.
 */
export function startFakeMain(api: StrataApi): void {
  installBridge(api);
  restartStore();
}
