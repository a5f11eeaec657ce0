import { randomUUID } from 'node:crypto';
import type { PermissionDecision, PermissionRequest } from '../../../common/domain/chat.js';
import type { PermissionAnswer } from '../tools/index.js';

/** What the write tools ask about: the file, the change, and whether the file is new. */
export type WriteRequest = Omit<PermissionRequest, 'requestId' | 'sessionId'>;

export interface PermissionBrokerDeps {
  sessionId: string;
  /** How writes are answered without a person at the screen, or 'ask'. */
  writes(): 'ask' | 'allow' | 'deny';
  /** "Always allow in this project" was chosen before. */
  alwaysAllowed(): boolean;
  rememberAlways(): Promise<void>;
  /** The request goes to every window; `waiting` flips the session's phase. */
  announce(request: PermissionRequest): void;
  waiting(waiting: boolean): void;
}

/**
 * The user's answers to writes outside the memory folders for one conversation: asked once per write,
 * answered from any window, all denied when the turn stops.
 */
export class PermissionBroker {
  private readonly pending = new Map<string, (answer: PermissionAnswer) => void>();

  constructor(private readonly deps: PermissionBrokerDeps) {}

  async ask(request: WriteRequest): Promise<PermissionAnswer> {
    const writes = this.deps.writes();
    if (writes !== 'ask') return writes === 'allow' ? 'allow_once' : 'deny';
    if (this.deps.alwaysAllowed()) return 'allow_always';
    const requestId = randomUUID();
    const answer = new Promise<PermissionAnswer>((resolve) => this.pending.set(requestId, resolve));
    this.deps.waiting(true);
    this.deps.announce({ requestId, sessionId: this.deps.sessionId, ...request });
    const decision = await answer;
    if (decision === 'allow_always') await this.deps.rememberAlways();
    this.deps.waiting(false);
    return decision;
  }

  /** False when nothing waits under that id (answered meanwhile, in another window). */
  answer(requestId: string, decision: PermissionDecision): boolean {
    const resolve = this.pending.get(requestId);
    if (!resolve) return false;
    this.pending.delete(requestId);
    resolve(decision);
    return true;
  }

  denyAll(): void {
    for (const resolve of this.pending.values()) resolve('deny');
    this.pending.clear();
  }
}
