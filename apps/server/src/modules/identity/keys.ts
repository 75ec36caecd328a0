import { createPrivateKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type CryptoKey, calculateJwkThumbprint, importJWK, type JWK } from 'jose';

export type SigningAlg = 'ES256' | 'RS256';

/** The identity service's signing key: private part for minting, public part for the JWKS. */
export interface SigningKey {
  alg: SigningAlg;
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** What /identity/jwks.json publishes. */
  publicJwk: JWK;
  /** Where the key came from, for the start-up log. */
  source: 'env' | 'file' | 'generated';
}

export class SigningKeyError extends Error {
  override name = 'SigningKeyError';
}

/** Where the generated key is kept between restarts. */
export const keyFilePath = (dataDir: string) => path.join(dataDir, 'keys', 'identity.json');

/**
 * The signing key: from `IDENTITY_PRIVATE_KEY` (JWK JSON or PEM; ES256 or RS256) when given,
 * else from `DATA_DIR/keys/identity.json`, generated (ES256) on first start with mode 0600.
 */
export async function loadSigningKey(opts: { dataDir: string; envKey?: string }): Promise<SigningKey> {
  const envKey = opts.envKey?.trim();
  if (envKey) {
    // A PEM pasted into a one-line env value often arrives with literal "\n" escapes.
    const text = envKey.startsWith('-----') && !envKey.includes('\n') ? envKey.replace(/\\n/g, '\n') : envKey;
    return fromJwk(parseKeyText(text, 'IDENTITY_PRIVATE_KEY'), 'env');
  }
  const file = keyFilePath(opts.dataDir);
  const existing = await readKeyFile(file);
  if (existing) return fromJwk(parseKeyText(existing, file), 'file');

  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const stored = { ...jwk, alg: 'ES256', use: 'sig', kid: await thumbprint(jwk) };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': when two processes share a DATA_DIR and race here, the first key wins and both use it.
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const winner = await readKeyFile(file);
    if (winner) return fromJwk(parseKeyText(winner, file), 'file');
  }
  return fromJwk(stored, 'generated');
}

async function readKeyFile(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  // A private key readable by others is tightened rather than refused.
  const mode = (await stat(file)).mode & 0o777;
  if (mode & 0o077) await chmod(file, 0o600);
  return text;
}

function parseKeyText(text: string, where: string): JsonWebKey {
  if (text.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new SigningKeyError(`${where}: not valid JSON`);
    }
    if (!parsed || typeof parsed !== 'object') throw new SigningKeyError(`${where}: not a JWK`);
    return parsed as JsonWebKey;
  }
  try {
    // PKCS#8 ("BEGIN PRIVATE KEY") and the older SEC1 / PKCS#1 PEM forms.
    return createPrivateKey(text).export({ format: 'jwk' });
  } catch {
    throw new SigningKeyError(`${where}: not a PEM private key or JWK`);
  }
}

function algOf(jwk: JsonWebKey, where: string): SigningAlg {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'RSA') {
    const bits = Buffer.from(String(jwk.n ?? ''), 'base64url').length * 8;
    if (bits < 2048) throw new SigningKeyError(`${where}: RSA keys must have at least 2048 bits`);
    return 'RS256';
  }
  throw new SigningKeyError(`${where}: only EC P-256 (ES256) and RSA (RS256) keys are supported`);
}

function publicPart(jwk: JsonWebKey): JsonWebKey {
  return jwk.kty === 'EC'
    ? { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y }
    : { kty: 'RSA', n: jwk.n, e: jwk.e };
}

const thumbprint = (jwk: JsonWebKey) => calculateJwkThumbprint(publicPart(jwk) as JWK, 'sha256');

async function fromJwk(jwk: JsonWebKey, source: SigningKey['source']): Promise<SigningKey> {
  const where = source === 'env' ? 'IDENTITY_PRIVATE_KEY' : 'identity signing key';
  if (!jwk.d) throw new SigningKeyError(`${where}: this is a public key; a private key is needed`);
  const alg = algOf(jwk, where);
  if (jwk.alg && jwk.alg !== alg) throw new SigningKeyError(`${where}: alg ${jwk.alg} does not fit the key`);
  const kid = typeof jwk.kid === 'string' && jwk.kid ? jwk.kid : await thumbprint(jwk);
  const pub = publicPart(jwk);
  const privateKey = await importJWK({ ...jwk, alg } as JWK, alg);
  const publicKey = await importJWK({ ...pub, alg } as JWK, alg);
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) {
    throw new SigningKeyError(`${where}: not an asymmetric key`);
  }
  return { alg, kid, privateKey, publicKey, publicJwk: { ...pub, kid, alg, use: 'sig' } as JWK, source };
}
