import { z } from 'zod';

/** Embedded chat (docs/ARCHITECTURE.md#embedded-chat): a virtual account lets a site embed one santito for its visitors. */

export const VisitorIdentities = ['anonymous', 'signed'] as const;
export const VisitorIdentitySchema = z.enum(VisitorIdentities);
export type VisitorIdentity = z.infer<typeof VisitorIdentitySchema>;

export const VirtualAccountLimits = {
  allowedOrigins: 20,
  welcome: 1000,
  messagesPerMinute: { min: 1, max: 600, default: 10 },
  messagesPerDay: { min: 1, max: 100_000, default: 200 },
} as const;

/**
 * An exact origin, `scheme://host[:port]` with nothing after it: the browser's `Origin` header is
 * compared to it byte for byte, so anything looser (paths, wildcards, a trailing slash) would never
 * match and is refused up front instead.
 */
export const ExactOriginSchema = z
  .string()
  .trim()
  .max(300)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        !url.username &&
        !url.password &&
        // No wildcards: URL parsing lets `*` through as a host character.
        /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname) &&
        url.origin === value
      );
    } catch {
      return false;
    }
  }, 'An allowed site is an exact origin such as https://shop.example.com (no path, no trailing slash)');

/** `#rrggbb`, the launcher's and the embedded header's colour. */
export const ColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'A colour looks like #1a2b3c')
  .transform((c) => c.toLowerCase());

export const VisitorLimitsSchema = z.strictObject({
  messagesPerMinute: z
    .number()
    .int()
    .min(VirtualAccountLimits.messagesPerMinute.min)
    .max(VirtualAccountLimits.messagesPerMinute.max),
  messagesPerDay: z
    .number()
    .int()
    .min(VirtualAccountLimits.messagesPerDay.min)
    .max(VirtualAccountLimits.messagesPerDay.max),
});
export type VisitorLimits = z.infer<typeof VisitorLimitsSchema>;

/** What the Admin screen shows per embed: activity of the last 30 days. */
export const VirtualAccountStatsSchema = z.object({
  visitors: z.number().int(),
  chats: z.number().int(),
  messages: z.number().int(),
});
export type VirtualAccountStats = z.infer<typeof VirtualAccountStatsSchema>;

export const VirtualAccountSchema = z.object({
  virtualAccountId: z.string(),
  domain: z.string(),
  displayName: z.string(),
  color: z.string(),
  /** The santito visitors talk to; null: the domain's default model. */
  agentId: z.string().nullable(),
  allowedOrigins: z.array(z.string()),
  welcome: z.string(),
  identity: VisitorIdentitySchema,
  limits: VisitorLimitsSchema,
  allowAttachments: z.boolean(),
  active: z.boolean(),
  stats: VirtualAccountStatsSchema,
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type VirtualAccount = z.infer<typeof VirtualAccountSchema>;

/** The create and rotate answers: the only time the signing secret is ever sent. */
export const VirtualAccountWithSecretSchema = VirtualAccountSchema.extend({
  /** HMAC-SHA256 key for signed visitors; shown once, never stored in clear by the site's server. */
  secret: z.string(),
});
export type VirtualAccountWithSecret = z.infer<typeof VirtualAccountWithSecretSchema>;

const Fields = {
  displayName: z.string().trim().min(1).max(80),
  color: ColorSchema,
  agentId: z.string().min(1).max(100).nullable(),
  allowedOrigins: z.array(ExactOriginSchema).max(VirtualAccountLimits.allowedOrigins),
  welcome: z.string().trim().max(VirtualAccountLimits.welcome),
  identity: VisitorIdentitySchema,
  limits: VisitorLimitsSchema,
  allowAttachments: z.boolean(),
  active: z.boolean(),
};

/** POST /api/v1/virtual_account */
export const VirtualAccountCreateSchema = z.strictObject({
  displayName: Fields.displayName,
  color: Fields.color.default('#1565c0'),
  agentId: Fields.agentId.default(null),
  allowedOrigins: Fields.allowedOrigins.default([]),
  welcome: Fields.welcome.default(''),
  identity: Fields.identity.default('anonymous'),
  limits: Fields.limits.default({
    messagesPerMinute: VirtualAccountLimits.messagesPerMinute.default,
    messagesPerDay: VirtualAccountLimits.messagesPerDay.default,
  }),
  allowAttachments: Fields.allowAttachments.default(false),
  active: Fields.active.default(true),
});
export type VirtualAccountCreate = z.input<typeof VirtualAccountCreateSchema>;

/** PUT /api/v1/virtual_account/{id}: only the fields given change. */
export const VirtualAccountUpdateSchema = z
  .strictObject({
    displayName: Fields.displayName.optional(),
    color: Fields.color.optional(),
    agentId: Fields.agentId.optional(),
    allowedOrigins: Fields.allowedOrigins.optional(),
    welcome: Fields.welcome.optional(),
    identity: Fields.identity.optional(),
    limits: Fields.limits.optional(),
    allowAttachments: Fields.allowAttachments.optional(),
    active: Fields.active.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to update' });
export type VirtualAccountUpdate = z.infer<typeof VirtualAccountUpdateSchema>;

/** GET /api/v1/virtual_account: not strict (the web client adds logging hints to every call). */
export const VirtualAccountListQuerySchema = z.object({
  /** A SuperAdmin's choice of domain; for anyone else a logging hint. */
  domain: z.string().trim().max(253).optional(),
});
export type VirtualAccountListQuery = z.infer<typeof VirtualAccountListQuerySchema>;

/** A visitor's id as a site signs it: short, printable, no separators that would make `${id}.${ts}` ambiguous. */
export const VisitorIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_@+-]+$/, 'A visitor id holds letters, digits and _ @ + - only');

/** A visitor the embedding site vouches for: `sig` = hex HMAC-SHA256(secret, `${id}.${ts}`). */
export const SignedVisitorSchema = z.strictObject({
  id: VisitorIdSchema,
  name: z.string().trim().max(120).optional(),
  email: z.string().trim().max(254).optional(),
  /** Seconds (not milliseconds) since the epoch, within 10 minutes of the server's clock. */
  ts: z.number().int().positive(),
  sig: z.string().regex(/^[0-9a-fA-F]{64}$/, 'sig is 64 hex digits'),
});
export type SignedVisitor = z.infer<typeof SignedVisitorSchema>;

/** How far a signed visitor's `ts` may be from now, either way. */
export const VISITOR_SIGNATURE_WINDOW_SECONDS = 600;

/** POST /api/v1/embedded/{id}/session */
export const EmbeddedSessionRequestSchema = z.strictObject({
  visitor: SignedVisitorSchema.optional(),
});
export type EmbeddedSessionRequest = z.infer<typeof EmbeddedSessionRequestSchema>;

/** What the embedded page shows before the first message. */
export const EmbeddedConfigSchema = z.object({
  virtualAccountId: z.string(),
  displayName: z.string(),
  color: z.string(),
  welcome: z.string(),
  allowAttachments: z.boolean(),
  /** The santito visitors talk to (null: the domain's default model). */
  agent: z
    .object({
      _id: z.string(),
      name: z.string(),
      avatar: z.string().nullable(),
      starters: z.array(z.string()),
    })
    .nullable(),
});
export type EmbeddedConfig = z.infer<typeof EmbeddedConfigSchema>;

export const EmbeddedSessionSchema = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.string(),
  user: z.object({ _id: z.string(), displayName: z.string() }),
  domain: z.object({ _id: z.string(), displayName: z.string() }),
  virtualAccount: EmbeddedConfigSchema,
});
export type EmbeddedSession = z.infer<typeof EmbeddedSessionSchema>;

/** GET /api/v1/embedded/{id}/launcher: what the launcher button shows, to allowed sites only. */
export const EmbeddedLauncherSchema = z.object({ displayName: z.string(), color: z.string() });
export type EmbeddedLauncher = z.infer<typeof EmbeddedLauncherSchema>;

/** The audience of a visitor's id token: no other service accepts it. */
export const EMBEDDED_AUDIENCE = 'embedded';
