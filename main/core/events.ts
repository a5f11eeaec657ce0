import type { EventChannel, PayloadOf } from '../../common/ipc/contract.js';

/** Called with each event's channel and that channel's payload type. */
type Listener = <E extends EventChannel>(channel: E, payload: PayloadOf<E>) => void;

/**
 * The fan-out of contract events to renderers: `createServices` forwards the engines' typed events
 * here, each from one place, and each transport (Electron windows, host WebSockets) subscribes once
 * and forwards them. No engine holds it; engines listen to each other's `onDidX` (docs/architecture.md#events).
 */
export class EventHub {
  private readonly listeners = new Set<Listener>();

  emit<E extends EventChannel>(channel: E, payload: PayloadOf<E>): void {
    for (const listener of this.listeners) listener(channel, payload);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
