import type { IdTokenClaims } from '@assistente/contracts';
import type { IdentityCore } from './core.ts';
import { idTokenRefused } from './errors.ts';
import { ID_TOKEN_TTL_SECONDS, type TokenSigner, type VisitorTokenSubject } from './tokens.ts';

/**
 * Id tokens as other modules and the identity routes see them (docs/ARCHITECTURE.md#identity): verifying
 * users' and visitors' tokens, signing a visitor's, and the keys and discovery document that let
 * others verify them.
 */

const MAX_TOKEN_LENGTH = 8192;

async function verifyWith(signer: TokenSigner, token: string): Promise<IdTokenClaims> {
  const check = await signer.checkIdToken(token);
  if (!check.ok) throw idTokenRefused(check.reason === 'expired');
  return check.claims;
}

const peekWith = (signer: TokenSigner, token: string): IdTokenClaims | undefined =>
  typeof token === 'string' && token.length <= MAX_TOKEN_LENGTH ? signer.peekIdToken(token) : undefined;

export const verifyIdToken = (core: IdentityCore, token: string) => verifyWith(core.signer, token);
export const peekIdToken = (core: IdentityCore, token: string) => peekWith(core.signer, token);
export const verifyVisitorToken = (core: IdentityCore, token: string) =>
  verifyWith(core.visitorSigner, token);
export const peekVisitorToken = (core: IdentityCore, token: string) => peekWith(core.visitorSigner, token);

/** A visitor's id token (`aud: embedded`); the embedded module mints the session around it. */
export function signVisitorToken(
  core: IdentityCore,
  subject: VisitorTokenSubject,
  now = new Date(),
): { idToken: string; expiresIn: string } {
  return {
    idToken: core.visitorSigner.signVisitorToken(subject, now),
    expiresIn: String(ID_TOKEN_TTL_SECONDS),
  };
}

export function openIdConfiguration(core: IdentityCore) {
  const base = `${core.deps.config.publicUrl}/identity`;
  return {
    issuer: core.signer.issuer,
    jwks_uri: `${base}/jwks.json`,
    token_endpoint: `${base}/v1/token`,
    revocation_endpoint: `${base}/v2/accounts:revokeToken`,
    grant_types_supported: ['password', 'refresh_token'],
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [core.signer.alg],
    claims_supported: [
      'iss',
      'aud',
      'sub',
      'iat',
      'exp',
      'auth_time',
      'email',
      'email_verified',
      'name',
      'user_id',
      'sid',
    ],
  };
}
