import {
  AccountLookupRequestSchema,
  type AccountLookupResponse,
  AccountLookupResponseSchema,
  IdentityErrorBodySchema,
  type IdentityErrorMessage,
  type Jwks,
  JwksSchema,
  OpenIdConfigurationSchema,
  PasswordPolicySchema,
  RefreshTokenRequestSchema,
  type RefreshTokenResponse,
  RefreshTokenResponseSchema,
  ResetPasswordRequestSchema,
  type ResetPasswordResponse,
  ResetPasswordResponseSchema,
  RevokeTokenRequestSchema,
  type RevokeTokenResponse,
  RevokeTokenResponseSchema,
  SendOobCodeRequestSchema,
  type SendOobCodeResponse,
  SendOobCodeResponseSchema,
  type SignInResponse,
  SignInResponseSchema,
  SignInWithIdpRequestSchema,
  type SignInWithIdpResponse,
  SignInWithIdpResponseSchema,
  SignInWithPasswordRequestSchema,
  UpdateAccountRequestSchema,
  type UpdateAccountResponse,
  UpdateAccountResponseSchema,
} from '@assistente/contracts';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import { linkBase } from '../../lib/origin.ts';
import { resolveLocale } from './emails.ts';
import { IdentityError } from './errors.ts';
import type { ClientInfo, IdentityServiceImpl } from './service.ts';

/** Identity Toolkit is mounted twice: our own path, and the host path the Firebase SDK uses in emulator mode. */
const TOOLKIT_BASES = ['/identity', '/identitytoolkit.googleapis.com'] as const;
const TOKEN_PATHS = ['/identity/v1/token', '/securetoken.googleapis.com/v1/token'] as const;
const CORS_PREFIXES = ['/identity/*', '/identitytoolkit.googleapis.com/*', '/securetoken.googleapis.com/*'];
/** Identity requests are small; a password is at most 4096 characters. */
const BODY_LIMIT = 64 * 1024;

const ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'x-client-version',
  'x-firebase-locale',
  'x-firebase-gmpid',
  'x-firebase-client',
  'x-firebase-appcheck',
].join(', ');

/** Operations Identity Toolkit has and this service refuses: accounts are made by admins. */
const NOT_OFFERED = ['signUp', 'signInWithEmailLink', 'signInWithCustomToken', 'delete'];

const PUBLIC = { auth: 'public' } as const;
const TAGS = ['identity'];
/** Any failure of any identity route answers in Identity Toolkit's envelope, never the API's. */
const FAILURES = { 400: IdentityErrorBodySchema, 500: IdentityErrorBodySchema };
/** A refused operation never succeeds: its declared 200 is "nothing", so the document says so. */
const NeverAnswered = z.never();
const MIRROR_NOTE =
  'The same operation at the path the Firebase JS SDK calls in emulator mode (`connectAuthEmulator`).';

/**
 * The declaration of the identity routes under `path`. The body schema documents what the Firebase
 * SDK sends but does not judge it: with `attachValidation` a body it refuses still reaches the
 * handler, whose parseBody answers Identity Toolkit's own code for the first bad field, in
 * Identity Toolkit's order, as the SDK expects. That is also why `request.body` stays `unknown`.
 */
function operation(path: string) {
  const mirror = !/^\/identity(\/|$)/.test(path);
  return <R extends z.ZodType>(summary: string, ok: R, body?: z.ZodType, consumes?: string[]) => ({
    config: PUBLIC,
    bodyLimit: BODY_LIMIT,
    attachValidation: true,
    schema: {
      tags: TAGS,
      summary,
      ...(mirror ? { description: MIRROR_NOTE } : {}),
      ...(body ? { body } : {}),
      ...(consumes ? { consumes } : {}),
      response: { 200: ok, ...FAILURES },
    },
  });
}

type FieldCodes = Record<string, { missing: IdentityErrorMessage; invalid: IdentityErrorMessage }>;

/** Parses a body with its contract schema; the first problem becomes the Identity Toolkit code for that field. */
function parseBody<S extends z.ZodType>(schema: S, body: unknown, fields: FieldCodes): z.infer<S> {
  const input = body ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new IdentityError('INVALID_ARGUMENT', 'The request body must be a JSON object');
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const codes = fields[field];
  if (codes) {
    const value = (input as Record<string, unknown>)[field];
    throw new IdentityError(
      value === undefined || value === null || value === '' ? codes.missing : codes.invalid,
    );
  }
  throw new IdentityError('INVALID_ARGUMENT', `${field || 'body'}: ${issue?.message ?? 'invalid value'}`);
}

const client = (request: FastifyRequest, config: Config): ClientInfo => ({
  ip: request.ip,
  linkBase: linkBase(config, request),
  ...(typeof request.headers['user-agent'] === 'string' ? { userAgent: request.headers['user-agent'] } : {}),
});

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/** Anything thrown inside the identity routes, in Identity Toolkit's error shape. */
export function toIdentityError(err: unknown): IdentityError {
  if (err instanceof IdentityError) return err;
  if (err instanceof AppError) {
    if (err.code === 'UNAUTHENTICATED') return new IdentityError('INVALID_ID_TOKEN');
    if (err.code === 'RATE_LIMITED') return new IdentityError('TOO_MANY_ATTEMPTS_TRY_LATER', undefined, 429);
    if (err.status < 500) return new IdentityError('INVALID_ARGUMENT', err.message);
    return new IdentityError('INTERNAL_ERROR', undefined, 500);
  }
  const fe = err as Partial<FastifyError>;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new IdentityError('INVALID_ARGUMENT', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new IdentityError('INVALID_ARGUMENT', 'Unsupported content type; send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new IdentityError('INVALID_ARGUMENT', 'Request body is empty');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new IdentityError('INVALID_ARGUMENT', 'Invalid JSON payload received');
  }
  if (fe.statusCode === 429) return new IdentityError('TOO_MANY_ATTEMPTS_TRY_LATER', undefined, 429);
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new IdentityError('INVALID_ARGUMENT', 'Bad request');
  }
  return new IdentityError('INTERNAL_ERROR', undefined, 500);
}

/** Every identity route, with its own error shape, form parser and open CORS (tokens travel in bodies, never cookies). */
export async function registerIdentityRoutes(
  app: FastifyInstance,
  identity: IdentityServiceImpl,
  config: Config,
): Promise<void> {
  await app.register(async (scope) => {
    scope.setErrorHandler((err, request, reply) => {
      const e = toIdentityError(err);
      if (e.status >= 500) request.log.error({ err }, 'identity request failed');
      reply.status(e.status).send(e.toBody());
    });

    // The Firebase SDK refreshes with a form body; app.ts registers @fastify/formbody, this keeps the module whole without it.
    if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: BODY_LIMIT },
        (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
    }

    scope.addHook('onRequest', async (_request, reply) => {
      reply.header('access-control-allow-origin', '*');
      reply.header('cache-control', 'no-store');
    });

    const r = scope.withTypeProvider<ZodTypeProvider>();
    for (const path of CORS_PREFIXES) {
      // A preflight is not an operation: public like every identity route, but kept out of the document.
      r.options(
        path,
        { config: PUBLIC, schema: { hide: true, response: { 204: z.undefined() } } },
        async (_request, reply) => {
          reply
            .header('access-control-allow-methods', 'GET, POST, OPTIONS')
            .header('access-control-allow-headers', ALLOWED_HEADERS)
            .header('access-control-max-age', '600')
            .status(204)
            .send();
        },
      );
    }

    for (const base of TOOLKIT_BASES) {
      const op = operation(base);
      // "::" is a literal ":" for Fastify's router; the document shows it as one ":".
      r.post(
        `${base}/v1/accounts::signInWithPassword`,
        op('Sign in with email and password', SignInResponseSchema, SignInWithPasswordRequestSchema),
        async (request): Promise<SignInResponse> => {
          const body = parseBody(SignInWithPasswordRequestSchema, request.body, {
            email: { missing: 'MISSING_EMAIL', invalid: 'INVALID_EMAIL' },
            password: { missing: 'MISSING_PASSWORD', invalid: 'MISSING_PASSWORD' },
          });
          const { account, tokens } = await identity.signInWithPassword(
            body.email,
            body.password,
            client(request, config),
          );
          return {
            kind: 'identitytoolkit#VerifyPasswordResponse',
            localId: account.uid,
            email: account.email,
            displayName: account.displayName,
            idToken: tokens.idToken,
            refreshToken: tokens.refreshToken,
            expiresIn: tokens.expiresIn,
            registered: true,
          };
        },
      );

      r.post(
        `${base}/v1/accounts::signInWithIdp`,
        op(
          'Finish a single sign-on: exchange the one-time code the callback gave the login page',
          SignInWithIdpResponseSchema,
          SignInWithIdpRequestSchema,
        ),
        async (request): Promise<SignInWithIdpResponse> => {
          const body = parseBody(SignInWithIdpRequestSchema, request.body, {
            postBody: { missing: 'INVALID_IDP_RESPONSE', invalid: 'INVALID_IDP_RESPONSE' },
          });
          const done = await identity.signInWithIdp(body.postBody, client(request, config));
          return {
            kind: 'identitytoolkit#VerifyAssertionResponse',
            providerId: done.providerId,
            federatedId: done.subject,
            localId: done.account.uid,
            email: done.account.email,
            emailVerified: true,
            displayName: done.account.displayName,
            idToken: done.tokens.idToken,
            refreshToken: done.tokens.refreshToken,
            expiresIn: done.tokens.expiresIn,
            isNewUser: done.isNewUser,
          };
        },
      );

      r.post(
        `${base}/v1/accounts::sendOobCode`,
        op('Mail a password-reset link', SendOobCodeResponseSchema, SendOobCodeRequestSchema),
        async (request): Promise<SendOobCodeResponse> => {
          const body = parseBody(SendOobCodeRequestSchema, request.body, {
            requestType: { missing: 'MISSING_REQ_TYPE', invalid: 'INVALID_REQ_TYPE' },
            email: { missing: 'MISSING_EMAIL', invalid: 'INVALID_EMAIL' },
          });
          const locale = resolveLocale(
            body.locale,
            header(request, 'x-firebase-locale'),
            header(request, 'accept-language'),
          );
          await identity.requestPasswordReset(body.email, locale, client(request, config));
          return { kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email: body.email };
        },
      );

      r.post(
        `${base}/v1/accounts::resetPassword`,
        op(
          'Check a reset code, or set a new password with it',
          ResetPasswordResponseSchema,
          ResetPasswordRequestSchema,
        ),
        async (request): Promise<ResetPasswordResponse> => {
          const body = parseBody(ResetPasswordRequestSchema, request.body, {
            oobCode: { missing: 'MISSING_OOB_CODE', invalid: 'INVALID_OOB_CODE' },
            newPassword: { missing: 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS', invalid: 'INVALID_ARGUMENT' },
          });
          const { email } =
            body.newPassword === undefined
              ? await identity.checkResetCode(body.oobCode, client(request, config))
              : await identity.resetPassword(body.oobCode, body.newPassword, client(request, config));
          return { kind: 'identitytoolkit#ResetPasswordResponse', email, requestType: 'PASSWORD_RESET' };
        },
      );

      r.post(
        `${base}/v1/accounts::update`,
        op('Change the password or display name', UpdateAccountResponseSchema, UpdateAccountRequestSchema),
        async (request): Promise<UpdateAccountResponse> => {
          const body = parseBody(UpdateAccountRequestSchema, request.body, {
            idToken: { missing: 'INVALID_ID_TOKEN', invalid: 'INVALID_ID_TOKEN' },
            password: { missing: 'PASSWORD_DOES_NOT_MEET_REQUIREMENTS', invalid: 'INVALID_ARGUMENT' },
          });
          const { account, tokens } = await identity.updateAccount(body.idToken, {
            ...(body.password !== undefined ? { password: body.password } : {}),
            ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
          });
          return {
            kind: 'identitytoolkit#SetAccountInfoResponse',
            localId: account.uid,
            email: account.email,
            displayName: account.displayName,
            ...(tokens
              ? { idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn }
              : {}),
          };
        },
      );

      r.post(
        `${base}/v1/accounts::lookup`,
        op('The signed-in account', AccountLookupResponseSchema, AccountLookupRequestSchema),
        async (request): Promise<AccountLookupResponse> => {
          const body = parseBody(AccountLookupRequestSchema, request.body, {
            idToken: { missing: 'INVALID_ID_TOKEN', invalid: 'INVALID_ID_TOKEN' },
          });
          const { account, session } = await identity.lookup(body.idToken);
          const email = account.email;
          return {
            kind: 'identitytoolkit#GetAccountInfoResponse',
            users: [
              {
                localId: account.uid,
                email,
                emailVerified: account.emailVerified,
                displayName: account.displayName,
                disabled: account.disabled,
                providerUserInfo: [
                  {
                    providerId: 'password',
                    federatedId: email,
                    email,
                    rawId: email,
                    displayName: account.displayName,
                  },
                ],
                ...(account.passwordUpdatedAt
                  ? { passwordUpdatedAt: account.passwordUpdatedAt.getTime() }
                  : {}),
                validSince: String(
                  Math.floor((account.passwordUpdatedAt ?? account.createdAt).getTime() / 1000),
                ),
                ...(account.lastLoginAt ? { lastLoginAt: String(account.lastLoginAt.getTime()) } : {}),
                createdAt: String(account.createdAt.getTime()),
                lastRefreshAt: session.lastUsedAt.toISOString(),
              },
            ],
          };
        },
      );

      r.post(
        `${base}/v2/accounts::revokeToken`,
        op('End the session of a refresh token', RevokeTokenResponseSchema, RevokeTokenRequestSchema),
        async (request): Promise<RevokeTokenResponse> => {
          const body = parseBody(RevokeTokenRequestSchema, request.body, {
            token: { missing: 'MISSING_REFRESH_TOKEN', invalid: 'INVALID_REFRESH_TOKEN' },
          });
          await identity.revokeRefreshToken(body.token);
          return {};
        },
      );

      r.get(
        `${base}/v2/passwordPolicy`,
        op('The password policy', PasswordPolicySchema),
        async (_request, reply) => {
          reply.header('cache-control', 'public, max-age=300');
          return identity.passwordPolicy();
        },
      );

      for (const method of NOT_OFFERED) {
        r.post(
          `${base}/v1/accounts::${method}`,
          op('Not offered (accounts are made by admins): always OPERATION_NOT_ALLOWED', NeverAnswered),
          async () => {
            throw new IdentityError('OPERATION_NOT_ALLOWED');
          },
        );
      }
    }

    for (const path of TOKEN_PATHS) {
      r.post(
        path,
        operation(path)(
          'Exchange a refresh token for new tokens',
          RefreshTokenResponseSchema,
          RefreshTokenRequestSchema,
          ['application/x-www-form-urlencoded', 'application/json'],
        ),
        async (request): Promise<RefreshTokenResponse> => {
          const body = parseBody(RefreshTokenRequestSchema, request.body, {
            grant_type: { missing: 'INVALID_GRANT_TYPE', invalid: 'INVALID_GRANT_TYPE' },
            refresh_token: { missing: 'MISSING_REFRESH_TOKEN', invalid: 'INVALID_REFRESH_TOKEN' },
          });
          const { account, tokens } = await identity.refresh(body.refresh_token);
          return {
            access_token: tokens.idToken,
            expires_in: tokens.expiresIn,
            token_type: 'Bearer',
            refresh_token: tokens.refreshToken,
            id_token: tokens.idToken,
            user_id: account.uid,
            project_id: identity.signer.audience,
          };
        },
      );
    }

    const own = operation('/identity');
    r.get(
      '/identity/.well-known/openid-configuration',
      own('The issuer’s OpenID metadata', OpenIdConfigurationSchema),
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return identity.openIdConfiguration();
      },
    );
    r.get(
      '/identity/jwks.json',
      own('The keys that verify id tokens', JwksSchema),
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        // jose types every member of a JWK optional; keys.ts always sets the ones Jwks requires.
        return identity.jwks() as Jwks;
      },
    );
  });
}
