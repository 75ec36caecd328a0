import type { PasswordPolicy } from '@assistente/contracts';

/** The identity provider's default when no policy is known (docs/ARCHITECTURE.md#identity). */
const DEFAULT_MIN_PASSWORD_LENGTH = 6;

export type PasswordRequirement =
  | 'minLength'
  | 'maxLength'
  | 'lowercase'
  | 'uppercase'
  | 'numeric'
  | 'nonAlphanumeric'
  /** Not a common password, a trivial variant of one, or the account's e-mail (as the server refuses). */
  | 'notGuessable';

export interface PasswordCheck {
  requirement: PasswordRequirement;
  met: boolean;
  /** The length bound, for the length requirements. */
  value?: number;
}

/** The shared guessable-password rule, once its list has loaded (see useGuessableCheck). */
export type GuessableCheck = (password: string) => boolean;

/**
 * The password's state against each requirement of the policy (the live checklist). The
 * guessable-password rule counts as unmet until its list has loaded (`isGuessable` null).
 */
export function passwordChecks(
  policy: PasswordPolicy | null,
  password: string,
  isGuessable: GuessableCheck | null,
): PasswordCheck[] {
  const options = policy?.customStrengthOptions ?? {};
  const min = options.minPasswordLength ?? DEFAULT_MIN_PASSWORD_LENGTH;
  const length = [...password].length;
  const checks: PasswordCheck[] = [{ requirement: 'minLength', met: length >= min, value: min }];
  if (options.maxPasswordLength !== undefined) {
    checks.push({
      requirement: 'maxLength',
      met: length <= options.maxPasswordLength,
      value: options.maxPasswordLength,
    });
  }
  if (options.containsLowercaseCharacter)
    checks.push({ requirement: 'lowercase', met: /\p{Ll}/u.test(password) });
  if (options.containsUppercaseCharacter)
    checks.push({ requirement: 'uppercase', met: /\p{Lu}/u.test(password) });
  if (options.containsNumericCharacter) checks.push({ requirement: 'numeric', met: /\d/.test(password) });
  if (options.containsNonAlphanumericCharacter) {
    const allowed = policy?.allowedNonAlphanumericCharacters ?? [];
    const met =
      allowed.length > 0
        ? [...password].some((char) => allowed.includes(char))
        : /[^\p{L}\p{N}]/u.test(password);
    checks.push({ requirement: 'nonAlphanumeric', met });
  }
  checks.push({
    requirement: 'notGuessable',
    met: password !== '' && !!isGuessable && !isGuessable(password),
  });
  return checks;
}

export function meetsPolicy(checks: readonly PasswordCheck[]): boolean {
  return checks.every((check) => check.met);
}
