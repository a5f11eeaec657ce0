import type { z } from 'zod';

/** An invoke channel: a zod schema for the request (checked in main) and the response type. */
export interface InvokeDef<Req extends z.ZodType, Res> {
  request: Req;
  /** Phantom: carries the response type only. */
  readonly _response?: Res;
}

/** An event channel from main to the renderer, payload type only (main is the trusted side). */
export interface EventDef<Payload> {
  readonly _payload?: Payload;
}

export const invoke =
  <Res>() =>
  <Req extends z.ZodType>(request: Req): InvokeDef<Req, Res> => ({ request });

export const event = <Payload>(): EventDef<Payload> => ({});
