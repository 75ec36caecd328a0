import { describe, expect, it } from 'vitest';
import { jwtClaims, parseStoredSession, sessionAfterRefresh, sessionFromExchange } from './session.ts';

const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('the stored session', () => {
  const now = 1_000_000;
  const exchanged = sessionFromExchange(
    'http://localhost:3000',
    {
      idToken: jwt({ name: 'Ana Lima' }),
      refreshToken: 'r1',
      expiresIn: '3600',
      localId: 'u1',
      email: 'ana@x.com',
    },
    now,
  );

  it('is named after the user and expires when the id token does', () => {
    expect(exchanged).toMatchObject({
      uid: 'u1',
      email: 'ana@x.com',
      name: 'Ana Lima',
      expiresAt: now + 3_600_000,
    });
  });

  it('falls back to the email when the token has no name', () => {
    const s = sessionFromExchange(
      'http://s',
      { idToken: 'not-a-jwt', refreshToken: 'r', expiresIn: '60', localId: 'u', email: 'e@x.com' },
      now,
    );
    expect(s.name).toBe('e@x.com');
    expect(jwtClaims('a.!!!.b')).toEqual({});
  });

  it('takes the rotated refresh token on renewal and keeps its id', () => {
    const renewed = sessionAfterRefresh(
      exchanged,
      {
        id_token: 'i2',
        refresh_token: 'r2',
        expires_in: '3600',
        token_type: 'Bearer',
        user_id: 'u1',
        project_id: 'p',
      },
      now + 10,
    );
    expect(renewed).toMatchObject({
      id: exchanged.id,
      idToken: 'i2',
      refreshToken: 'r2',
      expiresAt: now + 3_600_010,
    });
  });

  it('reads back what it stored and nothing else', () => {
    expect(parseStoredSession(JSON.stringify(exchanged))).toEqual(exchanged);
    expect(parseStoredSession(undefined)).toBeUndefined();
    expect(parseStoredSession('{')).toBeUndefined();
    expect(parseStoredSession(JSON.stringify({ ...exchanged, expiresAt: 'soon' }))).toBeUndefined();
  });
});
