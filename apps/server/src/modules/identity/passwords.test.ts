import { COMMON_PASSWORDS } from '@assistente/contracts/common-passwords';
import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, PASSWORD_POLICY, passwordProblem, verifyPassword } from './passwords.ts';

describe('password hashing', () => {
  it('hashes with argon2id at m=19456 KiB, t=2, p=1 and verifies', async () => {
    const stored = await hashPassword('a long enough passphrase');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'a long enough passphrase')).toBe(true);
    expect(await verifyPassword(stored, 'a long enough passphrasE')).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('answers false for a malformed stored hash instead of throwing', async () => {
    expect(await verifyPassword('not-a-hash', 'whatever')).toBe(false);
  });

  it('asks to rehash hashes made with weaker parameters', async () => {
    expect(needsRehash(await hash('x', { memoryCost: 4096, timeCost: 1 }))).toBe(true);
  });
});

describe('password policy', () => {
  it('publishes minimum length 6, schema version 1, enforced', () => {
    expect(PASSWORD_POLICY).toMatchObject({
      customStrengthOptions: { minPasswordLength: 6, maxPasswordLength: 4096 },
      enforcementState: 'ENFORCE',
      schemaVersion: 1,
    });
  });

  it('accepts ordinary good passwords', () => {
    for (const p of [
      'correct horse battery staple',
      'Tr0ub4dor&3',
      'mAr1a-c@f3-2024',
      'ção é ótimo',
      'xk9!q',
    ]) {
      if (p.length >= 6) expect(passwordProblem(p), p).toBeUndefined();
    }
  });

  it('refuses short and over-long passwords', () => {
    expect(passwordProblem('abc12')).toMatch(/at least 6/);
    expect(passwordProblem('x'.repeat(4097))).toMatch(/at most 4096/);
    expect(passwordProblem('      ')).toBeDefined();
    // Length counts characters, not UTF-16 units: five emoji are five characters.
    expect(passwordProblem('😀😁😂🤣😃')).toMatch(/at least 6/);
  });

  it('refuses the most common passwords and their trivial variants', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThan(1000);
    for (const p of [
      'password',
      'Password1',
      'PASSWORD123',
      'P@ssw0rd',
      'P@ssw0rd2024!',
      '123456',
      '12345678',
      'qwerty123',
      'iloveyou',
      'senha123',
      'Flamengo2024',
      'mudar@123',
      'contraseña',
      'aaaaaaaa',
      'abcdefgh',
      '98765432',
    ]) {
      expect(passwordProblem(p), p).toMatch(/too common/);
    }
  });

  it("refuses the account's own email or its local part", () => {
    expect(passwordProblem('maria.silva@acme.com.br', { email: 'Maria.Silva@acme.com.br' })).toMatch(/email/);
    expect(passwordProblem('maria.silva', { email: 'maria.silva@acme.com.br' })).toMatch(/email/);
    expect(passwordProblem('maria.silva2024', { email: 'maria.silva@acme.com.br' })).toMatch(/email/);
    expect(passwordProblem('maria.silva', { email: 'joao@acme.com.br' })).toBeUndefined();
  });
});
