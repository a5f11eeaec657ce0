/**
 * A typed event an engine owns, as VS Code's services expose theirs: the engine keeps the `Emitter`
 * and fires it in the one place the change happens; others subscribe through `event` (published as
 * `onDidX`) and get back the function that unsubscribes.
 */
export type Event<T> = (listener: (value: T) => void) => () => void;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /**
   * With `onListenerError`, a listener that throws is reported there and the others still run (an
   * engine whose event feeds several consumers); without it the error reaches the caller of `fire`.
   */
  constructor(private readonly options: { onListenerError?: (error: unknown) => void } = {}) {}

  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription, so the same function subscribed twice is called twice and unsubscribes once.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  };

  /** Calls every listener subscribed now, in subscription order; one subscribed meanwhile waits for the next fire. */
  fire(value: T): void {
    const report = this.options.onListenerError;
    for (const listener of [...this.listeners]) {
      if (!report) {
        listener(value);
        continue;
      }
      try {
        listener(value);
      } catch (error) {
        report(error);
      }
    }
  }
}
