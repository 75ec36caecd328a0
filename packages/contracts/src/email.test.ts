import { describe, expect, it } from 'vitest';
import { UserCreateSchema } from './accounts.ts';
import { EmailSchema } from './email.ts';
import { isEmailAddress } from './emailAddress.ts';

describe('the one e-mail rule', () => {
  it('accepts the first-run admin@localhost and ordinary addresses', () => {
    for (const email of ['admin@localhost', 'ana@acme.com.br', 'a+tag@sub.example.org', 'josé@exemplo.com']) {
      expect(isEmailAddress(email), email).toBe(true);
      expect(EmailSchema.safeParse(email).success, email).toBe(true);
    }
  });

  it('refuses what the identity service refuses', () => {
    for (const email of [
      '',
      'admin',
      '@localhost',
      'admin@',
      'a b@acme.com',
      'a@@acme.com',
      'a..b@acme.com',
      `${'a'.repeat(250)}@x.io`,
    ]) {
      expect(isEmailAddress(email), email).toBe(false);
      expect(EmailSchema.safeParse(email).success, email).toBe(false);
    }
  });

  it('lets an Admin of the first-run domain invite someone@localhost', () => {
    const parsed = UserCreateSchema.safeParse({
      email: 'maria@localhost',
      displayName: 'Maria',
      domain: 'localhost',
      department: 'd1',
      role: 'Viewer',
    });
    expect(parsed.success).toBe(true);
  });
});
