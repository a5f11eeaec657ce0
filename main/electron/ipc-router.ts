import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { invokeChannelNames, type EventChannel } from '../../common/ipc/contract.js';
import { err } from '../../common/result.js';
import type { Dispatch } from '../core/ipc/index.js';
import type { Logger } from '../core/ports.js';

/** The only file in main that touches `ipcMain` (lint-enforced). */

export interface SenderPolicy {
  /** webContents ids of the windows this app created. */
  trustedIds: Set<number>;
  /** Origins the renderer may be served from: `app://strata`, plus the Vite dev server in development. */
  allowedUrls: (url: URL) => boolean;
}

/**
 * Trust only our own frames (VS Code, GitHub Desktop): the main frame of a window we created, loaded
 * from our own origin. A subframe, a navigated-away page or a foreign window gets `permission_denied`.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, policy: SenderPolicy): boolean {
  const frame = event.senderFrame;
  if (!frame || frame !== event.sender.mainFrame) return false;
  if (!policy.trustedIds.has(event.sender.id)) return false;
  try {
    return policy.allowedUrls(new URL(frame.url));
  } catch {
    return false;
  }
}

export function bindIpcRouter(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatch: Dispatch,
  policy: SenderPolicy,
  logger: Logger,
): () => void {
  for (const channel of invokeChannelNames) {
    ipcMain.handle(channel, async (event, payload: unknown) => {
      if (!isTrustedSender(event, policy)) {
        logger.warn('IPC from an untrusted sender refused', { channel });
        return err('permission_denied', 'This window may not call Strata.');
      }
      return dispatch(channel, payload);
    });
  }
  return () => {
    for (const channel of invokeChannelNames) ipcMain.removeHandler(channel);
  };
}

/** Forwards a contract event to every live window we trust. */
export function sendEvent(targets: Iterable<WebContents>, channel: EventChannel, payload: unknown): void {
  for (const contents of targets) {
    if (!contents.isDestroyed()) contents.send(channel, payload);
  }
}
