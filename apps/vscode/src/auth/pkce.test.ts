import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeFor, createState, createVerifier, sameState } from './pkce.ts';

describe('PKCE', () => {
  it('makes a 43-character base64url verifier, different every time', () => {
    const verifiers = new Set(Array.from({ length: 50 }, createVerifier));
    expect(verifiers.size).toBe(50);
    for (const v of verifiers) expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('derives the S256 challenge the server checks (RFC 7636 appendix B)', () => {
    expect(challengeFor('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const v = createVerifier();
    expect(challengeFor(v)).toBe(createHash('sha256').update(v).digest('base64url'));
    expect(challengeFor(v)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('makes unguessable states and compares them exactly', () => {
    const a = createState();
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(createState()).not.toBe(a);
    expect(sameState(a, a)).toBe(true);
    expect(sameState(a, `${a}x`)).toBe(false);
    expect(sameState(a, a.slice(0, -1) + (a.endsWith('A') ? 'B' : 'A'))).toBe(false);
    expect(sameState(a, '')).toBe(false);
  });
});
