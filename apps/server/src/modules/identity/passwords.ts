import type { PasswordPolicy } from '@assistente/contracts';
import { type Algorithm, hash, parseOptions, verify } from '@node-rs/argon2';
import { COMMON_PASSWORDS } from './common-passwords.ts';

/** Argon2id with the OWASP / ASVS 5.0 minimum: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = {
  // Algorithm.Argon2id: an ambient const enum, which isolatedModules cannot read.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 4096;

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

const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  '8': 'b',
  '(': 'c',
  '3': 'e',
  '6': 'g',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  $: 's',
  '5': 's',
  '7': 't',
  '+': 't',
  '2': 'z',
};

function unleet(s: string): string[] {
  const plain = s.replace(/[@48(36!0$57+2]/g, (c) => LEET[c] ?? c);
  // "1" stands for "l" as often as for "i".
  return s.includes('1')
    ? [plain, s.replace(/[@48(36!0$57+2]/g, (c) => (c === '1' ? 'l' : (LEET[c] ?? c)))]
    : [plain];
}

/** The forms of a password worth looking up: as typed (case-folded), without trailing digits/symbols, un-leeted. */
function variants(password: string): Set<string> {
  const lower = password.toLowerCase();
  const out = new Set<string>([lower]);
  const stripped = lower.replace(/[\d\W_]+$/u, '');
  if (stripped.length >= 4) out.add(stripped);
  for (const v of [...out]) {
    for (const u of unleet(v)) {
      out.add(u);
      const s = u.replace(/[\d\W_]+$/u, '');
      if (s.length >= 4) out.add(s);
    }
  }
  return out;
}

const isRepeated = (s: string) => s.length > 0 && [...s].every((c) => c === s[0]);

function isSequence(s: string): boolean {
  if (s.length < 4) return false;
  const codes = [...s].map((c) => c.codePointAt(0) ?? 0);
  const step = (codes[1] ?? 0) - (codes[0] ?? 0);
  if (step !== 1 && step !== -1) return false;
  return codes.every((c, i) => i === 0 || c - (codes[i - 1] ?? 0) === step);
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
  const forms = variants(password);
  const email = context.email?.trim().toLowerCase();
  const local = email?.split('@')[0];
  for (const form of forms) {
    if (COMMON_PASSWORDS.has(form) || isRepeated(form) || isSequence(form)) {
      return 'Password is too common; choose one that is harder to guess';
    }
    if (email && (form === email || (local && local.length >= 3 && form === local))) {
      return 'Password must not be your email address';
    }
  }
  return undefined;
}
