import type { PasswordPolicy } from '@assistente/contracts';
import { describe, expect, it } from 'vitest';
import { meetsPolicy, passwordChecks } from './passwordPolicy.ts';

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
    expect(passwordChecks(null, '12345')).toEqual([{ requirement: 'minLength', met: false, value: 6 }]);
    expect(meetsPolicy(passwordChecks(null, '123456'))).toBe(true);
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
      Object.fromEntries(passwordChecks(p, password).map((c) => [c.requirement, c.met]));
    expect(state('abc')).toEqual({
      minLength: false,
      maxLength: true,
      lowercase: true,
      uppercase: false,
      numeric: false,
      nonAlphanumeric: false,
    });
    expect(meetsPolicy(passwordChecks(p, 'Senha#2024'))).toBe(true);
    expect(meetsPolicy(passwordChecks(p, 'Senha#2024-longa'))).toBe(false);
  });

  it('counts only the allowed special characters when the policy lists them', () => {
    const p = policy({ containsNonAlphanumericCharacter: true }, ['!', '#']);
    expect(passwordChecks(p, 'abc$def').find((c) => c.requirement === 'nonAlphanumeric')?.met).toBe(false);
    expect(passwordChecks(p, 'abc#def').find((c) => c.requirement === 'nonAlphanumeric')?.met).toBe(true);
  });

  it('counts accented letters as letters', () => {
    const p = policy({ containsUppercaseCharacter: true, containsNonAlphanumericCharacter: true });
    expect(passwordChecks(p, 'Ávila').map((c) => c.met)).toEqual([false, true, false]);
  });
});
