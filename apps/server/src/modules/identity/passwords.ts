import type { PasswordPolicy } from '@assistente/contracts';
import { guessable } from '@assistente/contracts/common-passwords';
import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';

/** Argon2id with the OWASP / ASVS 5.0 minimum: 19 MiB, 2 passes, 1 lane. */
const ARGON2_OPTIONS = {
  // Algorithm.Argon2id: an ambient const enum, which isolatedModules cannot read.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

const MIN_PASSWORD_LENGTH = 6;
const MAX_PASSWORD_LENGTH = 4096;

/** GET /v2/passwordPolicy: what the web client checks before it submits. */
export const PASSWORD_POLICY: PasswordPolicy = {
  customStrengthOptions: { minPasswordLength: MIN_PASSWORD_LENGTH, maxPasswordLength: MAX_PASSWORD_LENGTH },
  allowedNonAlphanumericCharacters: [],
  enforcementState: 'ENFORCE',
  forceUpgradeOnSignin: false,
  schemaVersion: 1,
};

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a malformed stored hash (never throws on bad input). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** True when a stored hash was made with other parameters than today's: rehash it at the next sign-in. */
export function needsRehash(stored: string): boolean {
  try {
    const o = parseOptions(stored);
    return (
      o.algorithm !== ARGON2_OPTIONS.algorithm ||
      o.memoryCost !== ARGON2_OPTIONS.memoryCost ||
      o.timeCost !== ARGON2_OPTIONS.timeCost ||
      o.parallelism !== ARGON2_OPTIONS.parallelism
    );
  } catch {
    return false;
  }
}

/**
 * Why a password is refused, or undefined when it is acceptable: length within the policy,
 * not one of the most common passwords (or a trivial variant), not the account's own email.
 */
export function passwordProblem(password: string, context: { email?: string } = {}): string | undefined {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `Password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === '') return 'Password must not be only spaces';
  const guess = guessable(password, context.email);
  if (guess === 'common') return 'Password is too common; choose one that is harder to guess';
  if (guess === 'email') return 'Password must not be your email address';
  return undefined;
}
