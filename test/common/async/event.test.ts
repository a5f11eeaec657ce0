import { describe, expect, it } from 'vitest';
import { Emitter } from '../../../common/async/event.js';

describe('Emitter', () => {
  it('delivers each fire to every listener in subscription order, until it unsubscribes', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    const offA = emitter.event((n) => seen.push(`a${n}`));
    emitter.event((n) => seen.push(`b${n}`));
    emitter.fire(1);
    offA();
    emitter.fire(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
  });

  it('counts the same function subscribed twice as two subscriptions', () => {
    const emitter = new Emitter<string>();
    const seen: string[] = [];
    const listener = (s: string) => seen.push(s);
    const off = emitter.event(listener);
    emitter.event(listener);
    emitter.fire('x');
    off();
    emitter.fire('y');
    expect(seen).toEqual(['x', 'x', 'y']);
  });

  it('a listener added or removed during a fire changes the next fire, not this one', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    let offLate: (() => void) | undefined;
    const offFirst = emitter.event((n) => {
      seen.push(`first${n}`);
      offFirst();
      offLate ??= emitter.event((m) => seen.push(`late${m}`));
    });
    emitter.fire(1);
    emitter.fire(2);
    expect(seen).toEqual(['first1', 'late2']);
  });

  it('reports a throwing listener to onListenerError and still calls the others; without it the error reaches fire', () => {
    const reported: unknown[] = [];
    const guarded = new Emitter<number>({ onListenerError: (error) => reported.push(error) });
    const seen: number[] = [];
    guarded.event(() => {
      throw new Error('listener broke');
    });
    guarded.event((n) => seen.push(n));
    guarded.fire(7);
    expect(seen).toEqual([7]);
    expect(reported).toEqual([new Error('listener broke')]);

    const plain = new Emitter<number>();
    plain.event(() => {
      throw new Error('listener broke');
    });
    expect(() => plain.fire(1)).toThrow('listener broke');
  });
});
