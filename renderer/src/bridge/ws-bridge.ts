import {
  eventChannelNames,
  invokeChannelNames,
  type EventChannel,
  type StrataApi,
} from '../../../common/ipc/contract';
import { err, type Result } from '../../../common/result';

export type ConnectionState = 'connecting' | 'open' | 'closed';

interface Pending {
  resolve: (result: Result<unknown>) => void;
}

/**
 * The contract over the host's WebSocket (`/ipc`), shaped exactly like the Electron preload's
 * `window.strata`. Frames `{id, channel, payload}` → `{id, result}`; events `{event, payload}`.
 * Reconnects with backoff; calls made while disconnected wait for the socket.
 */
export function createWsBridge(
  url: string,
  onState: (state: ConnectionState) => void,
): StrataApi {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let retryMs = 250;

  const connect = () => {
    onState('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onState('open');
      for (const frame of queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as { id?: number; result?: Result<unknown>; event?: EventChannel; payload?: unknown };
      if (data.event) {
        for (const listener of listeners.get(data.event) ?? []) listener(data.payload);
      } else if (typeof data.id === 'number' && data.result) {
        pending.get(data.id)?.resolve(data.result);
        pending.delete(data.id);
      }
    };
    ws.onclose = () => {
      onState('closed');
      // Requests in flight are lost with the socket; tell their callers instead of hanging.
      for (const [id, p] of pending) {
        p.resolve(err('io_error', 'The connection to Strata was lost. Try again.'));
        pending.delete(id);
      }
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5_000);
    };
  };
  connect();

  const send = (channel: string, payload: unknown) =>
    new Promise<Result<unknown>>((resolve) => {
      const id = nextId++;
      pending.set(id, { resolve });
      const frame = JSON.stringify({ id, channel, payload });
      if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
      else queue.push(frame);
    });

  const invoke = Object.fromEntries(
    invokeChannelNames.map((channel) => [channel, (request: unknown) => send(channel, request)]),
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

  return { invoke, on };
}
