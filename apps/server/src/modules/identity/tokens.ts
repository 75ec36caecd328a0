import { hkdfSync, KeyObject, sign } from 'node:crypto';
import { type IdTokenClaims, IdTokenClaimsSchema } from '@assistente/contracts';
import { type CryptoKey, type JWK, errors as joseErrors, jwtVerify } from 'jose';
import { hmacSha256 } from '../../lib/hmac.ts';
import type { SigningKey } from './keys.ts';
import type { VisitorTokenSubject } from './types.ts';

export type { VisitorTokenSubject };

export const ID_TOKEN_TTL_SECONDS = 3600;
/** Clock skew accepted between replicas. */
const CLOCK_TOLERANCE_SECONDS = 10;

export interface IdTokenSubject extends VisitorTokenSubject {
  email: string;
  emailVerified: boolean;
}

export type TokenCheck = { ok: true; claims: IdTokenClaims } | { ok: false; reason: 'expired' | 'invalid' };

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

const VERIFIED_CACHE_MAX = 10_000;

/** What a signer needs of a key: its algorithm and id, how to sign, and what verifies. */
interface JwtKey {
  alg: 'ES256' | 'RS256' | 'HS256';
  kid: string;
  sign(data: string): Buffer;
  verifyKey: CryptoKey | Uint8Array;
  jwk?: JWK;
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The service's key, signing with node:crypto directly: jose signs through WebCrypto, whose
 * promise round trip cost ~4× the signature itself on every sign-in and refresh.
 */
function asymmetric(key: SigningKey): JwtKey {
  const privateKey = KeyObject.from(key.privateKey);
  return {
    alg: key.alg,
    kid: key.kid,
    sign: (data) =>
      key.alg === 'ES256'
        ? sign('sha256', Buffer.from(data), { key: privateKey, dsaEncoding: 'ieee-p1363' })
        : sign('sha256', Buffer.from(data), privateKey),
    verifyKey: key.publicKey,
    jwk: key.publicJwk,
  };
}

/**
 * The key of embedded chats' visitor tokens (docs/ARCHITECTURE.md#identity): HMAC-SHA256 with a secret derived from the
 * service's private key, so every replica holding that key derives the same one. Only this service
 * verifies visitor tokens (nothing outside reads them against the JWKS), and a site's visitors may
 * open sessions by the thousand a second: an HMAC costs a tenth of an ECDSA signature.
 */
function visitorSecret(key: SigningKey): Buffer {
  const d = KeyObject.from(key.privateKey).export({ format: 'jwk' }).d;
  if (!d) throw new Error('the identity key has no private part');
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(d, 'base64url'), Buffer.alloc(0), 'assistente visitor id-token v1', 32),
  );
}

function symmetric(key: SigningKey): JwtKey {
  const secret = visitorSecret(key);
  return {
    alg: 'HS256',
    kid: `${key.kid}-visitors`,
    sign: hmacSha256(secret),
    verifyKey: new Uint8Array(secret),
  };
}

/** Mints and checks id tokens with the service's key. Other services check them against the JWKS. */
export class TokenSigner {
  private readonly key: JwtKey;
  /** The encoded JOSE header: the same for every token of this signer. */
  private readonly header: string;
  private readonly kind: 'user' | 'visitor';

  constructor(
    key: SigningKey,
    readonly issuer: string,
    readonly audience: string,
    /** `visitor`: embedded chats' tokens, HMAC-signed (see `visitorSecret`). */
    kind: 'user' | 'visitor' = 'user',
  ) {
    this.kind = kind;
    this.key = kind === 'visitor' ? symmetric(key) : asymmetric(key);
    this.header = b64url({ alg: this.key.alg, kid: this.key.kid, typ: 'JWT' });
  }

  get alg() {
    return this.key.alg;
  }

  /** Claims as Firebase puts them, plus `sid` (the session) so services can honour revocation at once. */
  signIdToken(s: IdTokenSubject, now = new Date()): string {
    if (this.kind !== 'user') throw new Error('a visitor signer signs visitor tokens only');
    const iat = seconds(now);
    return this.sign({
      email: s.email,
      email_verified: s.emailVerified,
      name: s.displayName,
      auth_time: seconds(s.authTime),
      user_id: s.uid,
      sid: s.sessionId,
      firebase: { identities: { email: [s.email.toLowerCase()] }, sign_in_provider: 'password' },
      iss: this.issuer,
      aud: this.audience,
      sub: s.uid,
      iat,
      exp: iat + ID_TOKEN_TTL_SECONDS,
    });
  }

  /**
   * A visitor's token: read by this service only (no Firebase SDK, no other service), so it holds
   * what the visitor resolver reads and no more. A shorter token is less to sign and send on a
   * public call that sites make for every visitor.
   */
  signVisitorToken(s: VisitorTokenSubject, now = new Date()): string {
    if (this.kind !== 'visitor') throw new Error('a user signer signs user tokens only');
    const iat = seconds(now);
    return this.sign({
      name: s.displayName,
      auth_time: seconds(s.authTime),
      sid: s.sessionId,
      iss: this.issuer,
      aud: this.audience,
      sub: s.uid,
      iat,
      exp: iat + ID_TOKEN_TTL_SECONDS,
    });
  }

  private sign(claims: IdTokenClaims): string {
    const signed = `${this.header}.${b64url(claims)}`;
    return `${signed}.${this.key.sign(signed).toString('base64url')}`;
  }

  /**
   * Tokens already verified, until they expire. A signature check costs a WebCrypto round trip
   * (~0.4 ms) on every API request otherwise; revocation is checked per request elsewhere (sid).
   * Keyed by the signature segment and compared whole: hashing a whole ~900-character token for
   * the lookup cost more (µs) than the rest of the check.
   */
  private readonly verified = new Map<string, { token: string; claims: IdTokenClaims }>();

  private known(token: string): IdTokenClaims | undefined {
    const hit = this.verified.get(signatureOf(token));
    return hit?.token === token ? hit.claims : undefined;
  }

  /**
   * The claims of a token this signer already verified and that has not expired since, without
   * waiting: the hot path of every authenticated request. Undefined means "verify it".
   */
  peekIdToken(token: string): IdTokenClaims | undefined {
    const known = this.known(token);
    return known && known.exp + CLOCK_TOLERANCE_SECONDS > Date.now() / 1000 ? known : undefined;
  }

  /** Signature, algorithm, issuer, audience, expiry and claim shapes; never throws. */
  async checkIdToken(token: string): Promise<TokenCheck> {
    if (typeof token !== 'string' || token.length > 8192) return { ok: false, reason: 'invalid' };
    const known = this.known(token);
    if (known) {
      if (known.exp + CLOCK_TOLERANCE_SECONDS > Date.now() / 1000) return { ok: true, claims: known };
      this.verified.delete(signatureOf(token));
      return { ok: false, reason: 'expired' };
    }
    try {
      const { payload } = await jwtVerify(token, this.key.verifyKey, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: [this.key.alg],
        requiredClaims: ['sub', 'iat', 'exp', 'auth_time'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      const parsed = IdTokenClaimsSchema.safeParse(payload);
      // A token whose `aud` is an array would verify above; ours never are, so refuse them.
      if (!parsed.success || typeof payload.aud !== 'string') return { ok: false, reason: 'invalid' };
      if (this.verified.size >= VERIFIED_CACHE_MAX) {
        // Oldest first (Map keeps insertion order): drop a slice rather than one per insert.
        let drop = VERIFIED_CACHE_MAX / 10;
        for (const key of this.verified.keys()) {
          this.verified.delete(key);
          if (--drop <= 0) break;
        }
      }
      this.verified.set(signatureOf(token), { token, claims: parsed.data });
      return { ok: true, claims: parsed.data };
    } catch (err) {
      return { ok: false, reason: err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
    }
  }

  /** The public key as /identity/jwks.json publishes it; visitor tokens' key is never published. */
  jwks(): { keys: JWK[] } {
    return { keys: this.key.jwk ? [this.key.jwk] : [] };
  }
}

/** A compact JWT's signature segment: unique per token, and a tenth of its length. */
function signatureOf(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1);
}
