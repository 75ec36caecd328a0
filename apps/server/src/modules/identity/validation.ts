/** Longest address SMTP can carry (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_DISPLAY_NAME_LENGTH = 256;

// Deliberately loose: one "@", something on each side, no spaces or control characters.
// `admin@localhost` (the first-run account) must pass.
const EMAIL_RE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_RE.test(email) && !email.includes('..');
}
