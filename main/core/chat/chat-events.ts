import { Emitter } from '../../../common/async/event.js';
import type { ChatDelta, ChatUpdate, MemoryProposal, PermissionRequest } from '../../../common/domain/chat.js';

/** A project's memory proposals as they are now, after one was added or resolved. */
export interface ProposalsChange {
  project: string;
  proposals: MemoryProposal[];
}

/**
 * The chat engine's events (docs/architecture.md#events). The runner owns them and publishes them as
 * `onDidX`; its sessions fire them as a turn goes.
 */
export class ChatEvents {
  readonly update = new Emitter<ChatUpdate>();
  readonly stream = new Emitter<ChatDelta>();
  readonly permissionRequest = new Emitter<PermissionRequest>();
  readonly proposals = new Emitter<ProposalsChange>();
}
