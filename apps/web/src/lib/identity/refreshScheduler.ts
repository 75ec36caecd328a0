/** The id token is renewed this long before it expires (docs/ARCHITECTURE.md#sessions-and-the-identity-client: 5 min). */
export const PROACTIVE_REFRESH_OFFSET_MS = 5 * 60_000;
/** After a failed renewal, retry after 30 s, doubling up to 16 min (docs/ARCHITECTURE.md#sessions-and-the-identity-client). */
export const REFRESH_RETRY_MIN_MS = 30_000;
export const REFRESH_RETRY_MAX_MS = 16 * 60_000;

/**
 * Renews the id token ahead of its expiry while a user is signed in, backing off after
 * failures (the Firebase SDK's proactive refresh, with the spec's numbers).
 */
export class ProactiveRefresh {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private errorBackoff = REFRESH_RETRY_MIN_MS;

  constructor(
    /** Renews the token; rejects on failure. */
    private readonly refresh: () => Promise<unknown>,
    /** The current token's expiry (epoch ms), or null without a user. */
    private readonly expirationTime: () => number | null,
    /** Whether a failure is worth retrying (network trouble) or ends the schedule. */
    private readonly isRetryable: (error: unknown) => boolean,
  ) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(false);
  }

  stop(): void {
    this.running = false;
    this.clear();
  }

  /** Restarts the clock after the token changed by other means (sign-in, another tab). */
  reschedule(): void {
    if (this.running) this.schedule(false);
  }

  /** Delay before the next attempt; after an error, the backoff (then doubled, capped). */
  nextDelay(wasError: boolean, now: number = Date.now()): number {
    if (wasError) {
      const delay = this.errorBackoff;
      this.errorBackoff = Math.min(this.errorBackoff * 2, REFRESH_RETRY_MAX_MS);
      return delay;
    }
    this.errorBackoff = REFRESH_RETRY_MIN_MS;
    const expiration = this.expirationTime();
    if (expiration === null) return REFRESH_RETRY_MAX_MS;
    return Math.max(0, expiration - now - PROACTIVE_REFRESH_OFFSET_MS);
  }

  private clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(wasError: boolean): void {
    this.clear();
    const delay = this.nextDelay(wasError);
    this.timer = setTimeout(() => void this.iterate(), delay);
  }

  private async iterate(): Promise<void> {
    this.timer = null;
    try {
      await this.refresh();
    } catch (error) {
      if (this.running && this.isRetryable(error)) this.schedule(true);
      else this.stop();
      return;
    }
    if (this.running) this.schedule(false);
  }
}
