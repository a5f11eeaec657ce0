import type { Dispatch } from './dispatcher.js';

/**
 * The requests a shell's dispatcher is still answering, so quitting can wait for them: the last save a
 * closing window sent must reach the disk before the engines close.
 */
export function trackInFlight(dispatch: Dispatch): { dispatch: Dispatch; settled(timeoutMs: number): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  return {
    dispatch(channel, payload) {
      const answer = dispatch(channel, payload);
      running.add(answer);
      void answer.finally(() => running.delete(answer));
      return answer;
    },
    async settled(timeoutMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      // Requests that arrive while waiting are waited for too (a window's unload may send several).
      const drain = async () => {
        while (running.size > 0) await Promise.allSettled([...running]);
      };
      await Promise.race([drain(), timeout]);
      clearTimeout(timer);
    },
  };
}
