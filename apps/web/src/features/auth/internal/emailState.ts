/**
 * The e-mail one auth page hands the next in the router's state (login → "Forgot password",
 * password set → login), so nobody types it twice. Never in the URL: it would reach the logs.
 */
export function emailFromState(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'email' in state) {
    const email = (state as { email: unknown }).email;
    if (typeof email === 'string') return email;
  }
  return '';
}
