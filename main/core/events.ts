import type { EventChannel, PayloadOf } from '../../common/ipc/contract.js';

type Listener = (channel: EventChannel, payload: unknown) => void;

/**
 * Engines publish contract events here; each transport (Electron windows, host WebSockets)
 * subscribes once and forwards them.
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
