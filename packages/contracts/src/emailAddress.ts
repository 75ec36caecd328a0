// Kept free of zod: the login page checks addresses with it, and zod would double its JavaScript.

/** Longest address SMTP can carry (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The one rule for an e-mail address, used by the identity service and by every form. Deliberately
 * loose: one "@", something on each side, no spaces, control characters or "..". Dotless hosts
 * pass, so the first-run `admin@localhost` can sign in through the page.
 */
export const EMAIL_PATTERN = /^(?!.*\.\.)[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(value);
}
