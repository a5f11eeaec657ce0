/**
 * A typed event an engine owns, as VS Code's services expose theirs: the engine keeps the `Emitter`
 * and fires it in the one place the change happens; others subscribe through `event` (published as
 * `onDidX`) and get back the function that unsubscribes.
 */
export type Event<T> = (listener: (value: T) => void) => () => void;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription, so the same function subscribed twice is called twice and unsubscribes once.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  };

  /** Calls every listener subscribed now, in subscription order; one subscribed meanwhile waits for the next fire. */
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
}
