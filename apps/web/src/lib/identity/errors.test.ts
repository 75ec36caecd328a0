import { describe, expect, it } from 'vitest';
import { IdentityError, identityErrorFromBody, identityErrorFromServerMessage } from './errors.ts';

describe('identity error mapping', () => {
  it.each([
    ['INVALID_LOGIN_CREDENTIALS', 'auth/invalid-credential'],
    ['USER_DISABLED', 'auth/user-disabled'],
    ['TOO_MANY_ATTEMPTS_TRY_LATER', 'auth/too-many-requests'],
    ['INVALID_OOB_CODE', 'auth/invalid-action-code'],
    ['EXPIRED_OOB_CODE', 'auth/expired-action-code'],
    ['TOKEN_EXPIRED', 'auth/user-token-expired'],
    ['INVALID_REFRESH_TOKEN', 'auth/invalid-user-token'],
    ['INVALID_ID_TOKEN', 'auth/invalid-user-token'],
    ['INVALID_EMAIL', 'auth/invalid-email'],
    ['MISSING_PASSWORD', 'auth/missing-password'],
    ['OPERATION_NOT_ALLOWED', 'auth/operation-not-allowed'],
    ['SOMETHING_NEW', 'auth/internal-error'],
  ])('%s → %s', (message, code) => {
    expect(identityErrorFromServerMessage(message).code).toBe(code);
  });

  it('splits "CODE : reason" into the code and the detail', () => {
    const error = identityErrorFromServerMessage(
      'PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain an upper case character]',
    );
    expect(error.code).toBe('auth/password-does-not-meet-requirements');
    expect(error.serverCode).toBe('PASSWORD_DOES_NOT_MEET_REQUIREMENTS');
    expect(error.detail).toBe(
      'Missing password requirements: [Password must contain an upper case character]',
    );
    expect(
      identityErrorFromServerMessage('WEAK_PASSWORD : Password should be at least 6 characters').code,
    ).toBe('auth/weak-password');
  });

  it('reads the Identity Toolkit error body', () => {
    const body = { error: { code: 400, message: 'INVALID_LOGIN_CREDENTIALS', errors: [] } };
    const error = identityErrorFromBody(body, 400);
    expect(error).toBeInstanceOf(IdentityError);
    expect(error.code).toBe('auth/invalid-credential');
  });

  it('falls back for bodies without an identity error', () => {
    expect(identityErrorFromBody('<html>', 502).code).toBe('auth/internal-error');
    expect(identityErrorFromBody(null, 429).code).toBe('auth/too-many-requests');
  });
});
