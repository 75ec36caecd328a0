import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IdentityErrorBodySchema } from '@assistente/contracts';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { buildIdentityTestApp, GOOD_PASSWORD, uniqueEmail } from '../../test/identity.ts';
import { SIGN_IN } from '../../test/identity-http.ts';

describe('signing keys', () => {
  it('persist across restarts in the same DATA_DIR', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'assistente-keys-'));
    try {
      const first = await buildIdentityTestApp({ dataDir });
      const account = await first.identity.createAccount({ email: uniqueEmail(), password: GOOD_PASSWORD });
      const pair = await first.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
      const jwks1 = first.identity.jwks();
      await first.close();
      const second = await buildIdentityTestApp({ dataDir });
      try {
        expect(second.identity.jwks()).toEqual(jwks1);
        const jwks = (await second.app.inject({ method: 'GET', url: '/identity/jwks.json' })).json();
        const { payload } = await jwtVerify(pair.idToken, createLocalJWKSet(jwks), {
          audience: 'assistente',
        });
        expect(payload.sub).toBe(account.uid);
        expect(await second.identity.verifyIdToken(pair.idToken)).toMatchObject({ sub: account.uid });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('come from IDENTITY_PRIVATE_KEY (RS256 PEM) when set, and nothing is written', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const t = await buildIdentityTestApp({ env: { IDENTITY_PRIVATE_KEY: pem } });
    try {
      const account = await t.identity.createAccount({ email: uniqueEmail(), password: GOOD_PASSWORD });
      const pair = await t.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
      expect(decodeProtectedHeader(pair.idToken).alg).toBe('RS256');
      const jwks = (await t.app.inject({ method: 'GET', url: '/identity/jwks.json' })).json();
      expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
      await jwtVerify(pair.idToken, createLocalJWKSet(jwks), { audience: 'assistente' });
      expect(existsSync(path.join(t.dataDir, 'keys', 'identity.json'))).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('come from IDENTITY_PRIVATE_KEY (ES256 JWK) with its own kid', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'ops-2026' };
    const t = await buildIdentityTestApp({ env: { IDENTITY_PRIVATE_KEY: JSON.stringify(jwk) } });
    try {
      const account = await t.identity.createAccount({ email: uniqueEmail(), password: GOOD_PASSWORD });
      const pair = await t.identity.issueSession(account.uid, { kind: 'web', name: 'test' });
      expect(decodeProtectedHeader(pair.idToken)).toMatchObject({ alg: 'ES256', kid: 'ops-2026' });
      expect(t.identity.jwks().keys[0]).toMatchObject({ kid: 'ops-2026', x: jwk.x, y: jwk.y });
    } finally {
      await t.close();
    }
  });
});

describe('mounted in the whole app (app.ts)', () => {
  it('serves sign-in, refresh, keys and its own error shape next to the other modules', async () => {
    const t = await buildTestApp();
    try {
      const email = uniqueEmail('app');
      await t.ctx.identity.createAccount({ email, password: GOOD_PASSWORD });
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=k',
        payload: { email, password: GOOD_PASSWORD, returnSecureToken: true },
      });
      expect(signIn.statusCode, signIn.body).toBe(200);
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/securetoken.googleapis.com/v1/token?key=k',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=refresh_token&refresh_token=${signIn.json().refreshToken}`,
      });
      expect(refresh.statusCode, refresh.body).toBe(200);
      const jwks = await t.app.inject({ method: 'GET', url: '/identity/jwks.json' });
      await jwtVerify(refresh.json().id_token, createLocalJWKSet(jwks.json()), { audience: 'assistente' });
      const bad = await t.app.inject({
        method: 'POST',
        url: SIGN_IN,
        headers: { 'content-type': 'application/json' },
        payload: '{oops',
      });
      expect(bad.statusCode).toBe(400);
      expect(IdentityErrorBodySchema.parse(bad.json()).error.message).toMatch(/^INVALID_ARGUMENT/);
    } finally {
      await t.close();
    }
  });
});
