/** Renew the id token this long before it expires, as the web app does (docs/ARCHITECTURE.md#sessions-and-the-identity-client: 5 min). */
export const REFRESH_BEFORE_EXPIRY_MS = 5 * 60_000;
/** After a failed renewal (network), retry after 30 s, doubling up to 16 min. */
export const RETRY_MIN_MS = 30_000;
export const RETRY_MAX_MS = 16 * 60_000;

/** When to renew a token that expires at `expiresAt` (epoch ms): never in the past. */
export function refreshDelay(expiresAt: number, now: number): number {
  return Math.max(0, expiresAt - now - REFRESH_BEFORE_EXPIRY_MS);
}

/** The wait before retry number `attempt` (0-based) after failed renewals. */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_MIN_MS * 2 ** Math.max(0, attempt), RETRY_MAX_MS);
}

/** A token is usable when it does not expire within the next minute (a request in flight must not outlive it). */
export function isFresh(expiresAt: number, now: number): boolean {
  return expiresAt - now > 60_000;
}
