import type { Emitter, Event } from '../../../common/async/event.js';
import type { TeamStatus } from '../../../common/domain/team.js';
import type { Clock, CredentialStore, Logger } from '../ports.js';
import type { VaultServices } from '../vault-services.js';

export interface TeamServiceOptions {
  /** The current vault (rebuilt on a vault switch). */
  vault: () => VaultServices;
  /** The current vault's settings changed (sessions whose server or switch changed rebuild). */
  onDidChangeSettings: Event<unknown>;
  /** The vault moved: every session belongs to the old one. */
  onDidSwitchVault: Event<unknown>;
  credentials: CredentialStore;
  clock: Clock;
  logger: Logger;
  /** Test seam for the OAuth wait; the app uses 5 minutes. */
  signInTimeoutMs?: number;
  /** How long closing waits for the last push of pending changes; 5 s. */
  finalPushMs?: number;
  /** Open the sessions of the projects whose team sync is set up at start (the app; not the CLI). */
  openAtStart?: boolean;
}

/** A session's options: the service's, and the service's status event it fires. */
export type TeamSessionOptions = TeamServiceOptions & { statusChanged: Emitter<TeamStatus> };

/** What a session was built from; a change of any field (settings, vault) rebuilds it. */
export interface SessionConfig {
  vaultRoot: string;
  serverUrl: string | null;
  teamRepo: string | null;
  enabled: boolean;
}

export const sameConfig = (a: SessionConfig, b: SessionConfig) =>
  a.vaultRoot === b.vaultRoot && a.serverUrl === b.serverUrl && a.teamRepo === b.teamRepo && a.enabled === b.enabled;
