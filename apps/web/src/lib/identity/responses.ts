import type {
  IdTokenClaims,
  RefreshTokenResponse,
  ResetPasswordResponse,
  SignInResponse,
  SsoLoginOption,
  UpdateAccountResponse,
} from '@assistente/contracts';
import { isObject, optionalString, requireObject, requireString } from '../guards.ts';
import type { ResponseSchema } from '../http/client.ts';

// The identity answers are checked by hand, against the contracts' types: these run on the
// login page, whose JavaScript budget has no room for the schema library.

export const signInResponse: ResponseSchema<SignInResponse> = {
  parse(data) {
    const o = requireObject(data, 'signInWithPassword');
    return {
      kind: optionalString(o, 'kind'),
      localId: requireString(o, 'localId', 'signInWithPassword'),
      email: requireString(o, 'email', 'signInWithPassword'),
      displayName: optionalString(o, 'displayName') ?? '',
      idToken: requireString(o, 'idToken', 'signInWithPassword'),
      refreshToken: requireString(o, 'refreshToken', 'signInWithPassword'),
      expiresIn: requireString(o, 'expiresIn', 'signInWithPassword'),
      registered: o.registered !== false,
    };
  },
};

export const refreshTokenResponse: ResponseSchema<RefreshTokenResponse> = {
  parse(data) {
    const o = requireObject(data, 'token');
    return {
      id_token: requireString(o, 'id_token', 'token'),
      refresh_token: requireString(o, 'refresh_token', 'token'),
      expires_in: requireString(o, 'expires_in', 'token'),
      token_type: 'Bearer',
      user_id: requireString(o, 'user_id', 'token'),
      project_id: optionalString(o, 'project_id') ?? '',
      access_token: optionalString(o, 'access_token'),
    };
  },
};

export const resetPasswordResponse: ResponseSchema<ResetPasswordResponse> = {
  parse(data) {
    const o = requireObject(data, 'resetPassword');
    return {
      kind: optionalString(o, 'kind'),
      email: requireString(o, 'email', 'resetPassword'),
      requestType: 'PASSWORD_RESET',
    };
  },
};

export const updateAccountResponse: ResponseSchema<UpdateAccountResponse> = {
  parse(data) {
    const o = requireObject(data, 'update');
    return {
      kind: optionalString(o, 'kind'),
      localId: requireString(o, 'localId', 'update'),
      email: requireString(o, 'email', 'update'),
      displayName: optionalString(o, 'displayName'),
      idToken: optionalString(o, 'idToken'),
      refreshToken: optionalString(o, 'refreshToken'),
      expiresIn: optionalString(o, 'expiresIn'),
    };
  },
};

/** The claims of an id token payload, or null when it is not one. */
export function idTokenClaims(data: unknown): IdTokenClaims | null {
  if (!isObject(data)) return null;
  const { iss, aud, sub, auth_time, iat, exp } = data;
  if (typeof iss !== 'string' || typeof aud !== 'string' || typeof sub !== 'string') return null;
  if (typeof auth_time !== 'number' || typeof iat !== 'number' || typeof exp !== 'number') return null;
  return {
    iss,
    aud,
    sub,
    auth_time,
    iat,
    exp,
    email: optionalString(data, 'email'),
    email_verified: typeof data.email_verified === 'boolean' ? data.email_verified : undefined,
    name: optionalString(data, 'name'),
    user_id: optionalString(data, 'user_id'),
    sid: optionalString(data, 'sid'),
  };
}

/** GET /identity/sso/providers; an entry of an unknown kind is shown as a generic OpenID one. */
export const ssoLoginOptions: ResponseSchema<SsoLoginOption[]> = {
  parse(data) {
    const o = requireObject(data, 'sso/providers');
    const list = Array.isArray(o.providers) ? o.providers : [];
    return list.filter(isObject).map((p) => ({
      id: requireString(p, 'id', 'sso/providers'),
      displayName: requireString(p, 'displayName', 'sso/providers'),
      kind: p.kind === 'google' ? 'google' : 'oidc',
    }));
  },
};
