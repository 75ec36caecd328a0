import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalLoginUri, verifyPkce } from './service.ts';

const WEB = 'https://app.example.com';

describe('canonicalLoginUri', () => {
  it('accepts the login page with or without a locale prefix', () => {
    for (const p of ['/auth/login', '/en/auth/login', '/es/auth/login', '/pt-BR/auth/login']) {
      expect(canonicalLoginUri(WEB, `${WEB}${p}`)).toBe(`${WEB}/auth/login`);
    }
  });

  it('refuses everything else', () => {
    for (const uri of [
      `${WEB}/auth/login/`,
      `${WEB}/auth/login?x=1`,
      `${WEB}/pt-br/auth/login`,
      `${WEB}/auth/reset-password`,
      'https://app.example.com.evil.io/auth/login',
      'http://app.example.com/auth/login',
      `${WEB}:443/auth/login`,
    ]) {
      expect(canonicalLoginUri(WEB, uri)).toBeUndefined();
    }
  });
});

describe('verifyPkce', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  it('matches the RFC 7636 example', () => {
    expect(challenge).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifyPkce(verifier, challenge)).toBe(true);
  });

  it('refuses another verifier, the plain method and a truncated challenge', () => {
    expect(verifyPkce(`${verifier}x`, challenge)).toBe(false);
    expect(verifyPkce(verifier, verifier)).toBe(false);
    expect(verifyPkce(verifier, challenge.slice(0, 20))).toBe(false);
  });
});
