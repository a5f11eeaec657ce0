import { z } from 'zod';
import {
  invokeChannels,
  type InvokeChannel,
  type ParsedRequestOf,
  type ResponseOf,
} from '../../../common/ipc/contract.js';
import { AppFailure, err, ok, type Result } from '../../../common/result.js';
import type { Logger } from '../ports.js';

export type Handler<C extends InvokeChannel> = (request: ParsedRequestOf<C>) => Promise<ResponseOf<C>> | ResponseOf<C>;

/** One handler per invoke channel; the type makes a missing one a compile error. */
export type Handlers = { [C in InvokeChannel]: Handler<C> };

export type Dispatch = (channel: string, payload: unknown) => Promise<Result<unknown>>;

/**
 * The transport-independent half of IPC: channel lookup, schema parse (the trust boundary), the
 * handler call, and the mapping of anything unexpected to `internal`. Electron's router and the
 * host's WebSocket both call it, so both transports behave alike.
 */
export function createDispatcher(handlers: Handlers, logger: Logger): Dispatch {
  return async (channel, payload) => {
    if (!Object.hasOwn(invokeChannels, channel)) return err('invalid_request', `Unknown channel ${channel}`);
    const name = channel as InvokeChannel;
    const parsed = invokeChannels[name].request.safeParse(payload ?? {});
    if (!parsed.success) return err('invalid_request', z.prettifyError(parsed.error));
    try {
      const handler = handlers[name] as (request: unknown) => Promise<unknown>;
      return ok(await handler(parsed.data));
    } catch (error) {
      if (error instanceof AppFailure) return err(error.code, error.message);
      logger.error('IPC handler failed', { channel: name, error: (error as Error).message });
      return err('internal', 'Something went wrong inside Strata. The details are in the log.');
    }
  };
}
