/** The ipc engine's public face: what code outside main/core/ipc imports. */
export { createDispatcher } from './dispatcher.js';
export type { Dispatch } from './dispatcher.js';
export { createHandlers } from './handlers.js';
export { trackInFlight } from './in-flight.js';
