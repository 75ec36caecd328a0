import { z } from 'zod';
import { DomainNameSchema } from './accounts.ts';
import { Roles } from './roles.ts';
import { SsoErrorCodes, SsoKinds } from './sso-codes.ts';
import { httpUrlSchema } from './urls.ts';

export const SsoKindSchema = z.enum(SsoKinds);

const IssuerSchema = httpUrlSchema(
  {
    scheme: 'The issuer must be an http(s) URL',
    credentials: 'The issuer is a plain URL: no credentials, query or fragment',
  },
  true,
).transform((u) => u.replace(/\/+$/, ''));

const SsoDomainsSchema = z
  .array(DomainNameSchema)
  .min(1, 'Name at least one e-mail domain')
  .max(100)
  .transform((list) => [...new Set(list)]);

/** Roles a provider may give to people it creates; never SuperAdmin. */
export const SsoDefaultRoles = Roles.filter((r) => r !== 'SuperAdmin') as ['Viewer', 'Editor', 'Admin'];
export const SsoDefaultRoleSchema = z.enum(SsoDefaultRoles);

/** An identity provider as the API shows it (docs/ARCHITECTURE.md#single-sign-on): the client secret is never sent back. */
export const SsoProviderSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  kind: SsoKindSchema,
  issuer: z.string(),
  clientId: z.string(),
  hasClientSecret: z.boolean(),
  domains: z.array(z.string()),
  autoProvision: z.boolean(),
  defaultRole: SsoDefaultRoleSchema,
  enabled: z.boolean(),
  /** `instance`: from the server's OIDC_* environment, read-only here. */
  source: z.enum(['instance', 'configured']),
  /** What the operator registers at the provider: exactly `{PUBLIC_URL}/identity/sso/{id}/callback`. */
  redirectUri: z.string(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type SsoProvider = z.infer<typeof SsoProviderSchema>;

/** A configured provider's id: `sso` and 12 hex digits (`env` is the environment's). */
export const SsoProviderIdSchema = z
  .string()
  .regex(/^sso[0-9a-f]{12}$/, 'A provider id is "sso" and 12 hexadecimal digits');

/**
 * A fresh provider id. The form makes one when it opens, so the redirect URI, which holds the id,
 * can be registered at the provider before the form is saved.
 */
export function newSsoProviderId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
  return `sso${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The path of a provider's redirect URI, under the server's public URL. */
export const ssoCallbackPath = (id: string) => `/identity/sso/${encodeURIComponent(id)}/callback`;

/** POST /api/v1/integration/sso */
export const SsoProviderCreateSchema = z.strictObject({
  /** Chosen by the client up front (see newSsoProviderId); the server makes one when absent. */
  id: SsoProviderIdSchema.optional(),
  displayName: z.string().trim().min(1).max(120),
  issuer: IssuerSchema,
  clientId: z.string().trim().min(1).max(512),
  clientSecret: z.string().trim().max(4096).nullish(),
  domains: SsoDomainsSchema,
  autoProvision: z.boolean().default(false),
  defaultRole: SsoDefaultRoleSchema.default('Viewer'),
  enabled: z.boolean().default(true),
});
export type SsoProviderCreate = z.input<typeof SsoProviderCreateSchema>;

/** PUT /api/v1/integration/sso/{id}: `clientSecret` empty or absent keeps the stored one, `null` removes it. */
export const SsoProviderUpdateSchema = z.strictObject({
  displayName: z.string().trim().min(1).max(120).optional(),
  issuer: IssuerSchema.optional(),
  clientId: z.string().trim().min(1).max(512).optional(),
  clientSecret: z.string().trim().max(4096).nullish(),
  domains: SsoDomainsSchema.optional(),
  autoProvision: z.boolean().optional(),
  defaultRole: SsoDefaultRoleSchema.optional(),
  enabled: z.boolean().optional(),
});
export type SsoProviderUpdate = z.input<typeof SsoProviderUpdateSchema>;

/** GET /identity/sso/providers: what the login page needs, for anyone. */
export const SsoLoginOptionSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  kind: SsoKindSchema,
});
export const SsoLoginOptionsSchema = z.object({ providers: z.array(SsoLoginOptionSchema) });
export type SsoLoginOptions = z.infer<typeof SsoLoginOptionsSchema>;

/** GET /identity/sso/{providerId}/start?redirect=… — `redirect` is an app path, checked by the server. */
export const SsoStartQuerySchema = z.object({
  redirect: z.string().max(2048).optional(),
  /** The interface language to come back to (the login page's locale prefix). */
  locale: z.enum(['pt-BR', 'en', 'es']).optional(),
});

export const SsoErrorCodeSchema = z.enum(SsoErrorCodes);

/**
 * POST /identity/v1/accounts:signInWithIdp (Identity Toolkit's shape). The one-time code the
 * callback handed to the login page travels in `postBody` as `code=…&providerId=…`.
 */
export const SignInWithIdpRequestSchema = z.object({
  requestUri: z.string().max(4096).optional(),
  postBody: z.string().min(1).max(4096),
  returnSecureToken: z.boolean().optional(),
  returnIdpCredential: z.boolean().optional(),
});
export type SignInWithIdpRequest = z.infer<typeof SignInWithIdpRequestSchema>;

export const SignInWithIdpResponseSchema = z.object({
  kind: z.string().optional(),
  providerId: z.string(),
  federatedId: z.string(),
  localId: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  displayName: z.string(),
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.string(),
  /** True when this sign-in created the account. */
  isNewUser: z.boolean(),
});
export type SignInWithIdpResponse = z.infer<typeof SignInWithIdpResponseSchema>;
