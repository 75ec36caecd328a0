import { z } from 'zod';

/** Identity Toolkit error messages (the `error.message` of a 400 from /identity). */
export const IdentityErrorMessages = [
  'INVALID_LOGIN_CREDENTIALS',
  'USER_DISABLED',
  'TOO_MANY_ATTEMPTS_TRY_LATER',
  'TOKEN_EXPIRED',
  'INVALID_REFRESH_TOKEN',
  'INVALID_OOB_CODE',
  'EXPIRED_OOB_CODE',
  'PASSWORD_DOES_NOT_MEET_REQUIREMENTS',
  'INVALID_ID_TOKEN',
  'MISSING_EMAIL',
  'MISSING_PASSWORD',
  'INVALID_EMAIL',
  'INVALID_REQ_TYPE',
  'MISSING_REFRESH_TOKEN',
  'INVALID_GRANT_TYPE',
  'OPERATION_NOT_ALLOWED',
  'USER_NOT_FOUND',
  'CREDENTIAL_TOO_OLD_LOGIN_AGAIN',
  'MISSING_OOB_CODE',
  'MISSING_REQ_TYPE',
  'INVALID_ARGUMENT',
  'INTERNAL_ERROR',
  /** signInWithIdp: the one-time code is unknown, used or expired. */
  'INVALID_IDP_RESPONSE',
] as const;
export type IdentityErrorMessage = (typeof IdentityErrorMessages)[number];

/**
 * Every failure of the identity service, in Identity Toolkit's envelope rather than the API's:
 * `error.message` is one of `IdentityErrorMessages`, possibly followed by " : " and a detail.
 */
export const IdentityErrorBodySchema = z.object({
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    errors: z.array(z.object({ message: z.string(), domain: z.string(), reason: z.string() })),
  }),
});
export type IdentityErrorBody = z.infer<typeof IdentityErrorBodySchema>;

/**
 * Splits an identity error message into its code and optional detail. Like Identity Toolkit, the
 * service may append a human-readable detail after " : ", e.g.
 * `PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Password must have at least 6 characters`.
 */
export function splitIdentityErrorMessage(message: string): { code: string; detail?: string } {
  const i = message.indexOf(' : ');
  return i === -1 ? { code: message } : { code: message.slice(0, i), detail: message.slice(i + 3) };
}

/** POST accounts:signInWithPassword, as the Firebase SDK sends it. */
export const SignInWithPasswordRequestSchema = z.object({
  email: z.string(),
  password: z.string(),
  returnSecureToken: z.boolean().optional(),
  tenantId: z.string().optional(),
  clientType: z.string().optional(),
  captchaResponse: z.string().optional(),
});
export type SignInWithPasswordRequest = z.infer<typeof SignInWithPasswordRequestSchema>;

/** A signed-in session: who, and the tokens for it. */
export const SignInResponseSchema = z.object({
  kind: z.string().optional(),
  localId: z.string(),
  email: z.string(),
  displayName: z.string(),
  idToken: z.string(),
  refreshToken: z.string(),
  /** Seconds the id token lives, as a string ("3600"). */
  expiresIn: z.string(),
  registered: z.boolean(),
});
export type SignInResponse = z.infer<typeof SignInResponseSchema>;

/** POST /identity/v1/token: a form body from the Firebase SDK, JSON from other clients. */
export const RefreshTokenRequestSchema = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1),
});
/** New tokens; the refresh token given is rotated and must not be used again. */
export const RefreshTokenResponseSchema = z.object({
  id_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.string(),
  token_type: z.literal('Bearer'),
  user_id: z.string(),
  project_id: z.string(),
  /** The id token again, under the name OAuth clients look for. */
  access_token: z.string().optional(),
});
export type RefreshTokenResponse = z.infer<typeof RefreshTokenResponseSchema>;

/** POST accounts:revokeToken: `token` is a refresh token; its whole session ends. */
export const RevokeTokenRequestSchema = z.object({
  token: z.string().min(1),
  tokenType: z.string().optional(),
  providerId: z.string().optional(),
  idToken: z.string().optional(),
});
/** Nothing to say: the session is over, or never was. */
export const RevokeTokenResponseSchema = z.object({});
export type RevokeTokenResponse = z.infer<typeof RevokeTokenResponseSchema>;

/** POST accounts:sendOobCode: mails a reset link; the same answer whether the account exists or not. */
export const SendOobCodeRequestSchema = z.object({
  requestType: z.literal('PASSWORD_RESET'),
  email: z.string(),
  continueUrl: z.string().optional(),
  locale: z.string().optional(),
});
export const SendOobCodeResponseSchema = z.object({ kind: z.string().optional(), email: z.string() });
export type SendOobCodeRequest = z.infer<typeof SendOobCodeRequestSchema>;
export type SendOobCodeResponse = z.infer<typeof SendOobCodeResponseSchema>;

/** POST accounts:resetPassword: without `newPassword` it only checks the code. */
export const ResetPasswordRequestSchema = z.object({
  oobCode: z.string().min(1),
  newPassword: z.string().optional(),
});
export const ResetPasswordResponseSchema = z.object({
  kind: z.string().optional(),
  email: z.string(),
  requestType: z.literal('PASSWORD_RESET'),
});
export type ResetPasswordResponse = z.infer<typeof ResetPasswordResponseSchema>;
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

/** POST accounts:update: a new password ends every other session and answers new tokens. */
export const UpdateAccountRequestSchema = z.object({
  idToken: z.string().min(1),
  password: z.string().optional(),
  displayName: z.string().optional(),
  returnSecureToken: z.boolean().optional(),
});
export const UpdateAccountResponseSchema = z.object({
  kind: z.string().optional(),
  localId: z.string(),
  email: z.string(),
  displayName: z.string().optional(),
  idToken: z.string().optional(),
  refreshToken: z.string().optional(),
  expiresIn: z.string().optional(),
});

export type UpdateAccountRequest = z.infer<typeof UpdateAccountRequestSchema>;
export type UpdateAccountResponse = z.infer<typeof UpdateAccountResponseSchema>;
export type RefreshTokenRequest = z.infer<typeof RefreshTokenRequestSchema>;
export type RevokeTokenRequest = z.infer<typeof RevokeTokenRequestSchema>;

/** POST accounts:lookup (the Firebase SDK calls it after every sign-in). */
export const AccountLookupRequestSchema = z.object({ idToken: z.string().min(1) });
export type AccountLookupRequest = z.infer<typeof AccountLookupRequestSchema>;

export const ProviderUserInfoSchema = z.object({
  providerId: z.string(),
  federatedId: z.string().optional(),
  email: z.string().optional(),
  rawId: z.string().optional(),
  displayName: z.string().optional(),
});

export const AccountLookupResponseSchema = z.object({
  kind: z.string().optional(),
  users: z.array(
    z.object({
      localId: z.string(),
      email: z.string(),
      emailVerified: z.boolean(),
      displayName: z.string().optional(),
      disabled: z.boolean().optional(),
      providerUserInfo: z.array(ProviderUserInfoSchema),
      /** Milliseconds since the epoch (a number, as Identity Toolkit answers it). */
      passwordUpdatedAt: z.number().optional(),
      /** Seconds since the epoch, as a string. */
      validSince: z.string(),
      /** Milliseconds since the epoch, as strings. */
      lastLoginAt: z.string().optional(),
      createdAt: z.string(),
      /** ISO 8601 date and time. */
      lastRefreshAt: z.string().optional(),
    }),
  ),
});
export type AccountLookupResponse = z.infer<typeof AccountLookupResponseSchema>;

/** GET v2/passwordPolicy: what the Firebase SDK checks a new password against before sending it. */
export const PasswordPolicySchema = z.object({
  customStrengthOptions: z.object({
    minPasswordLength: z.number().int().optional(),
    maxPasswordLength: z.number().int().optional(),
    containsLowercaseCharacter: z.boolean().optional(),
    containsUppercaseCharacter: z.boolean().optional(),
    containsNumericCharacter: z.boolean().optional(),
    containsNonAlphanumericCharacter: z.boolean().optional(),
  }),
  allowedNonAlphanumericCharacters: z.array(z.string()),
  enforcementState: z.enum(['ENFORCE', 'OFF', 'ENFORCEMENT_STATE_UNSPECIFIED']),
  forceUpgradeOnSignin: z.boolean(),
  schemaVersion: z.literal(1),
});
export type PasswordPolicy = z.infer<typeof PasswordPolicySchema>;

/** A public key of GET /identity/jwks.json (EC P-256 or RSA). */
export const JwkSchema = z.object({
  kty: z.string(),
  kid: z.string(),
  alg: z.string(),
  use: z.string(),
  crv: z.string().optional(),
  x: z.string().optional(),
  y: z.string().optional(),
  n: z.string().optional(),
  e: z.string().optional(),
});
/** The keys that verify id tokens: every service checks them here, never with a shared secret. */
export const JwksSchema = z.object({ keys: z.array(JwkSchema) });
export type Jwks = z.infer<typeof JwksSchema>;

/** GET /identity/.well-known/openid-configuration: the issuer's metadata. */
export const OpenIdConfigurationSchema = z.object({
  issuer: z.string(),
  jwks_uri: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string(),
  grant_types_supported: z.array(z.string()),
  response_types_supported: z.array(z.string()),
  subject_types_supported: z.array(z.string()),
  id_token_signing_alg_values_supported: z.array(z.string()),
  claims_supported: z.array(z.string()),
});
export type OpenIdConfiguration = z.infer<typeof OpenIdConfigurationSchema>;

/** Claims of an id token minted by the identity service. */
export const IdTokenClaimsSchema = z.object({
  iss: z.string(),
  aud: z.string(),
  sub: z.string(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  name: z.string().optional(),
  auth_time: z.number(),
  iat: z.number(),
  exp: z.number(),
  user_id: z.string().optional(),
  sid: z.string().optional(),
  firebase: z
    .object({
      identities: z.record(z.string(), z.array(z.string())).optional(),
      sign_in_provider: z.string().optional(),
    })
    .optional(),
});
export type IdTokenClaims = z.infer<typeof IdTokenClaimsSchema>;
