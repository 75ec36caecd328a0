import { createHmac, generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { keyFilePath, loadSigningKey, SigningKeyError } from './keys.ts';
import { TokenSigner } from './tokens.ts';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'assistente-keys-unit-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const subject = {
  uid: 'u1',
  email: 'Ana@Example.com',
  emailVerified: true,
  displayName: 'Ana',
  sessionId: 's1',
  authTime: new Date(),
};

describe('loadSigningKey', () => {
  it('generates an ES256 key once, keeps it with mode 0600, and reads it back', async () => {
    const dataDir = tempDir();
    const first = await loadSigningKey({ dataDir });
    expect(first).toMatchObject({ alg: 'ES256', source: 'generated' });
    const file = keyFilePath(dataDir);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ kty: 'EC', crv: 'P-256', kid: first.kid });
    const second = await loadSigningKey({ dataDir });
    expect(second.source).toBe('file');
    expect(second.publicJwk).toEqual(first.publicJwk);
    expect(first.publicJwk).not.toHaveProperty('d');
  });

  it('tightens a key file readable by others', async () => {
    const dataDir = tempDir();
    await loadSigningKey({ dataDir });
    chmodSync(keyFilePath(dataDir), 0o644);
    await loadSigningKey({ dataDir });
    expect(statSync(keyFilePath(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('takes PEM (PKCS#8, SEC1, PKCS#1) and JWK from the environment', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const cases: Array<[string, string]> = [
      [ec.export({ format: 'pem', type: 'pkcs8' }).toString(), 'ES256'],
      [ec.export({ format: 'pem', type: 'sec1' }).toString(), 'ES256'],
      [rsa.export({ format: 'pem', type: 'pkcs8' }).toString(), 'RS256'],
      [rsa.export({ format: 'pem', type: 'pkcs1' }).toString(), 'RS256'],
      [JSON.stringify(rsa.export({ format: 'jwk' })), 'RS256'],
      // One-line env value with literal \n escapes.
      [ec.export({ format: 'pem', type: 'pkcs8' }).toString().trim().replace(/\n/g, '\\n'), 'ES256'],
    ];
    for (const [text, alg] of cases) {
      const dataDir = tempDir();
      const key = await loadSigningKey({ dataDir, envKey: text });
      expect(key.alg).toBe(alg);
      expect(key.source).toBe('env');
      const signer = new TokenSigner(key, 'https://x/identity', 'proj');
      const token = await signer.signIdToken(subject);
      expect(decodeProtectedHeader(token)).toMatchObject({ alg, kid: key.kid, typ: 'JWT' });
      expect((await signer.checkIdToken(token)).ok).toBe(true);
    }
  });

  it('refuses public keys, weak RSA, other curves and garbage with a clear error', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const bad = [
      JSON.stringify(ec.publicKey.export({ format: 'jwk' })),
      generateKeyPairSync('rsa', { modulusLength: 1024 })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
      generateKeyPairSync('ec', { namedCurve: 'secp384r1' })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
      generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      JSON.stringify({ ...ec.privateKey.export({ format: 'jwk' }), alg: 'RS256' }),
      '{not json',
      'not a key',
    ];
    for (const text of bad) {
      await expect(loadSigningKey({ dataDir: tempDir(), envKey: text })).rejects.toBeInstanceOf(
        SigningKeyError,
      );
    }
  });

  it('refuses a corrupt key file rather than silently replacing it', async () => {
    const dataDir = tempDir();
    mkdirSync(path.dirname(keyFilePath(dataDir)), { recursive: true });
    writeFileSync(keyFilePath(dataDir), '{"kty":"EC"}', { mode: 0o600 });
    await expect(loadSigningKey({ dataDir })).rejects.toBeInstanceOf(SigningKeyError);
  });
});

describe('TokenSigner', () => {
  it('tells expired tokens from invalid ones and checks issuer and audience', async () => {
    const key = await loadSigningKey({ dataDir: tempDir() });
    const signer = new TokenSigner(key, 'https://x/identity', 'proj');
    const old = await signer.signIdToken(subject, new Date(Date.now() - 2 * 3600_000));
    expect(await signer.checkIdToken(old)).toEqual({ ok: false, reason: 'expired' });
    const fresh = await signer.signIdToken(subject);
    expect(await new TokenSigner(key, 'https://other/identity', 'proj').checkIdToken(fresh)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await new TokenSigner(key, 'https://x/identity', 'embedded').checkIdToken(fresh)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    const other = new TokenSigner(await loadSigningKey({ dataDir: tempDir() }), 'https://x/identity', 'proj');
    expect((await other.checkIdToken(fresh)).ok).toBe(false);
    const check = await signer.checkIdToken(fresh);
    expect(check.ok && check.claims).toMatchObject({
      sub: 'u1',
      sid: 's1',
      email: 'Ana@Example.com',
      name: 'Ana',
    });
  });

  it('refuses unsigned tokens', async () => {
    const key = await loadSigningKey({ dataDir: tempDir() });
    const signer = new TokenSigner(key, 'https://x/identity', 'proj');
    const [, payload] = (await signer.signIdToken(subject)).split('.');
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect((await signer.checkIdToken(none)).ok).toBe(false);
  });

  it('signs visitors’ tokens with an HMAC key derived from the service key, never published', async () => {
    const dir = tempDir();
    const key = await loadSigningKey({ dataDir: dir });
    const visitors = new TokenSigner(key, 'https://x/identity', 'embedded', 'visitor');
    const token = visitors.signVisitorToken(subject);
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    // What the visitor resolver reads, and no email (a visitor's is a made-up address).
    expect(decodeJwt(token)).toEqual({
      name: 'Ana',
      auth_time: expect.any(Number),
      sid: 's1',
      iss: 'https://x/identity',
      aud: 'embedded',
      sub: 'u1',
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    // Each signer signs its own kind only.
    expect(() => visitors.signIdToken(subject)).toThrow(/visitor tokens only/);
    expect(visitors.jwks().keys).toEqual([]);
    // Another replica with the same key derives the same secret; another key does not verify it.
    const replica = new TokenSigner(
      await loadSigningKey({ dataDir: dir }),
      'https://x/identity',
      'embedded',
      'visitor',
    );
    expect((await replica.checkIdToken(token)).ok).toBe(true);
    const stranger = new TokenSigner(
      await loadSigningKey({ dataDir: tempDir() }),
      'https://x/identity',
      'embedded',
      'visitor',
    );
    expect((await stranger.checkIdToken(token)).ok).toBe(false);
    // A user signer does not take it, even for the same audience, nor the reverse.
    const users = new TokenSigner(key, 'https://x/identity', 'embedded');
    expect((await users.checkIdToken(token)).ok).toBe(false);
    expect((await visitors.checkIdToken(users.signIdToken(subject))).ok).toBe(false);
    // Algorithm confusion: an HS256 token keyed with the public JWK is refused by the user signer.
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${createHmac('sha256', JSON.stringify(key.publicJwk)).update(`${header}.${payload}`).digest('base64url')}`;
    expect((await users.checkIdToken(forged)).ok).toBe(false);
  });
});
