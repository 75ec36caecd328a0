import type { PasswordPolicy } from '@assistente/contracts';
import { guessable } from '@assistente/contracts/common-passwords';
import { describe, expect, it } from 'vitest';
import { meetsPolicy, passwordChecks } from './passwordPolicy.ts';

/** The server's rule, as the pages use it once loaded. */
const isGuessable = (password: string) => guessable(password, 'ana@acme.com') !== undefined;

const policy = (
  options: PasswordPolicy['customStrengthOptions'],
  allowed: string[] = [],
): PasswordPolicy => ({
  customStrengthOptions: options,
  allowedNonAlphanumericCharacters: allowed,
  enforcementState: 'ENFORCE',
  forceUpgradeOnSignin: false,
  schemaVersion: 1,
});

describe('password policy', () => {
  it('defaults to a minimum length of 6', () => {
    expect(passwordChecks(null, '12345', isGuessable)[0]).toEqual({
      requirement: 'minLength',
      met: false,
      value: 6,
    });
    expect(meetsPolicy(passwordChecks(null, 'lua-de-mel-azul', isGuessable))).toBe(true);
  });

  it('shows the common-password rule unmet for "123456", a variant of a common one, or the own e-mail', () => {
    for (const password of ['123456', 'P@ssw0rd2024!', 'qwerty123', 'ana@acme.com', 'aaaaaaa', 'abcdefg']) {
      const checks = passwordChecks(null, password, isGuessable);
      expect(checks.find((c) => c.requirement === 'notGuessable')?.met, password).toBe(false);
      expect(meetsPolicy(checks), password).toBe(false);
    }
  });

  it('counts the common-password rule unmet until its list has loaded', () => {
    const checks = passwordChecks(null, 'lua-de-mel-azul', null);
    expect(checks.find((c) => c.requirement === 'notGuessable')?.met).toBe(false);
  });

  it('checks every requirement the policy sets', () => {
    const p = policy({
      minPasswordLength: 8,
      maxPasswordLength: 12,
      containsLowercaseCharacter: true,
      containsUppercaseCharacter: true,
      containsNumericCharacter: true,
      containsNonAlphanumericCharacter: true,
    });
    const state = (password: string) =>
      Object.fromEntries(passwordChecks(p, password, isGuessable).map((c) => [c.requirement, c.met]));
    expect(state('abc')).toEqual({
      minLength: false,
      maxLength: true,
      lowercase: true,
      uppercase: false,
      numeric: false,
      nonAlphanumeric: false,
      // "abc" is a run of letters: guessable.
      notGuessable: false,
    });
    expect(meetsPolicy(passwordChecks(p, 'Lua#Azul2024', isGuessable))).toBe(true);
    expect(meetsPolicy(passwordChecks(p, 'Lua#Azul2024-longa', isGuessable))).toBe(false);
  });

  it('counts only the allowed special characters when the policy lists them', () => {
    const p = policy({ containsNonAlphanumericCharacter: true }, ['!', '#']);
    expect(
      passwordChecks(p, 'abc$def', isGuessable).find((c) => c.requirement === 'nonAlphanumeric')?.met,
    ).toBe(false);
    expect(
      passwordChecks(p, 'abc#def', isGuessable).find((c) => c.requirement === 'nonAlphanumeric')?.met,
    ).toBe(true);
  });

  it('counts accented letters as letters', () => {
    const p = policy({ containsUppercaseCharacter: true, containsNonAlphanumericCharacter: true });
    expect(passwordChecks(p, 'Ávila', isGuessable).map((c) => c.met)).toEqual([false, true, false, true]);
  });
});
