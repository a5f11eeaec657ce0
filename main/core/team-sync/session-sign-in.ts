import { AppFailure } from '../../../common/result.js';
import type { Clock, CredentialStore, Logger } from '../ports.js';
import { TeamAuth } from './oauth-client.js';

export interface SessionSignInOptions {
  serverUrl: string;
  credentials: CredentialStore;
  clock: Clock;
  logger: Logger;
  refreshLeadMs: number;
  /** How long the browser sign-in may take; the app uses 5 minutes. */
  timeoutMs: number;
  /** The status changed (a URL to open, a sign-in finished or failed, the account became known). */
  changed: () => void;
  /** A browser sign-in succeeded: syncing may start. */
  signedIn: () => void;
  /** The server no longer accepts the stored sign-in: syncing stops; nothing local is touched. */
  revoked: () => Promise<void>;
}

/** Only a web page may be handed to the browser (a metadata document could name any scheme). */
function webUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/**
 * A team session's sign-in (docs/memory.md#team-sync): the browser flow and the page it must open,
 * who the server knows this sign-in as, and a sign-in revoked elsewhere noticed by the server's answer.
 */
export class SessionSignIn {
  readonly auth: TeamAuth;
  private signedInNow = false;
  /** The user name the server knows this sign-in as (`GET /api/me`), once it has answered. */
  private accountName: string | null = null;
  private pageUrl: string | null = null;
  private abort: AbortController | null = null;
  /** A sign-in failure, shown until the next attempt or sync. */
  private failure: string | null = null;
  private announce: ((url: string | null) => void) | null = null;
  private closed = false;

  private constructor(private readonly o: SessionSignInOptions) {
    this.auth = new TeamAuth({
      serverUrl: o.serverUrl,
      credentials: o.credentials,
      clock: o.clock,
      logger: o.logger,
      openBrowser: (url) => this.offerUrl(url),
      refreshLeadMs: o.refreshLeadMs,
    });
  }

  /** Reads the stored sign-in; one that may have been revoked elsewhere is checked with the server at once. */
  static async load(o: SessionSignInOptions): Promise<SessionSignIn> {
    const signIn = new SessionSignIn(o);
    signIn.signedInNow = await signIn.auth.isSignedIn();
    if (signIn.signedInNow) void signIn.checkAccount();
    return signIn;
  }

  get signedIn(): boolean {
    return this.signedInNow;
  }

  /** The account name while signed in. */
  get account(): string | null {
    return this.signedInNow ? this.accountName : null;
  }

  get url(): string | null {
    return this.pageUrl;
  }

  get error(): string | null {
    return this.failure;
  }

  /**
   * Starts the browser sign-in and resolves as soon as the authorization page's URL is known (the
   * renderer opens it). The sign-in itself finishes in the background; its outcome arrives through
   * `changed` (and `signedIn`).
   */
  async start(): Promise<void> {
    if (this.signedInNow) return;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.pageUrl = null;
    this.failure = null;
    const announced = new Promise<string | null>((resolve) => (this.announce = resolve));
    const flow = this.auth
      .signIn({ timeoutMs: this.o.timeoutMs, signal: abort.signal })
      .then(
        () => null,
        (error: unknown) => (error as Error).message,
      )
      .then((failure) => {
        if (this.abort !== abort || this.closed) return;
        this.abort = null;
        this.pageUrl = null;
        if (failure === null) {
          this.signedInNow = true;
          this.o.signedIn();
          void this.checkAccount();
        } else {
          this.failure = `Sign-in failed: ${failure}`;
        }
        this.o.changed();
      });
    const first = await Promise.race([announced, flow.then(() => null)]);
    this.announce = null;
    if (first === null && !this.signedInNow) {
      throw new AppFailure('io_error', this.failure ?? 'The sign-in could not start.');
    }
  }

  /** Stops a browser sign-in in progress. */
  cancel(): void {
    this.abort?.abort();
    this.abort = null;
    this.pageUrl = null;
  }

  /** Forgets the stored tokens (the caller stopped syncing first). */
  async signOut(): Promise<void> {
    this.cancel();
    await this.auth.signOut();
    this.signedInNow = false;
    this.accountName = null;
    this.failure = null;
  }

  close(): void {
    this.closed = true;
    this.cancel();
  }

  /** Asks the server who this sign-in is; a sign-in revoked elsewhere ends here, nothing local touched. */
  async checkAccount(): Promise<'user' | 'signed-out' | 'unknown'> {
    const who = await this.auth.whoAmI().catch(() => ({ kind: 'unknown' as const }));
    if (this.closed) return who.kind;
    if (who.kind === 'user' && who.user !== this.accountName) {
      this.accountName = who.user;
      this.o.changed();
    } else if (who.kind === 'signed-out' && this.signedInNow) {
      this.o.logger.info('team sync: the stored sign-in is no longer valid; sign in again');
      this.signedInNow = false;
      this.accountName = null;
      this.failure = 'The team server no longer accepts this sign-in (signed out or revoked elsewhere). Sign in again.';
      await this.o.revoked();
      this.o.changed();
    }
    return who.kind;
  }

  private offerUrl(url: string): void {
    const safe = webUrl(url);
    if (!safe) {
      this.o.logger.warn('the team server named an authorization page that is not a web page; sign-in cancelled');
      this.abort?.abort();
      return;
    }
    this.pageUrl = safe;
    this.announce?.(safe);
    this.o.changed();
  }
}
