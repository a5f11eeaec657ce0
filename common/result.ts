/**
 * Errors cross every boundary (IPC, WebSocket, CLI) as values with a code, never as thrown objects:
 * only `message` survives Electron's `ipcMain.handle`, so codes must travel in the value itself.
 */
export const errorCodes = [
  'invalid_request',
  'not_found',
  'not_a_directory',
  'permission_denied',
  'conflict',
  'unsupported',
  'io_error',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface AppError {
  code: ErrorCode;
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const err = (code: ErrorCode, message: string): Result<never> => ({ ok: false, error: { code, message } });

/** An error a handler throws on purpose; the dispatcher turns it into `err(code, message)`. */
export class AppFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppFailure';
  }
}

/** Exhaustiveness guard for switches over codes and unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
