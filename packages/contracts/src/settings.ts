import { z } from 'zod';
import { EulaSchema, RoleSchema } from './accounts.ts';
import { TimeZoneSchema } from './chats.ts';
import { Locales } from './locales.ts';

/** /api/v1/settings: the caller's own profile, sessions and EULA record; domain settings for Admins. */

export const LocaleSchema = z.enum(Locales);

/** GET /api/v1/settings/profile. `locale` is null until the user picks one (mails then follow the request). */
export const ProfileSchema = z.object({
  _id: z.string(),
  email: z.string(),
  displayName: z.string(),
  locale: LocaleSchema.nullable(),
  role: RoleSchema,
  domain: z.string(),
  department: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** PUT /api/v1/settings/profile: what a user changes about themself here. The password stays on the identity API. */
export const ProfileUpdateSchema = z
  .strictObject({
    displayName: z.string().trim().min(1).max(120).optional(),
    locale: LocaleSchema.optional(),
  })
  .refine((b) => b.displayName !== undefined || b.locale !== undefined, 'Nothing to change');
export type ProfileUpdate = z.infer<typeof ProfileUpdateSchema>;

/** One sign-in session of the caller: a browser, or an editor signed in through the code-assist handoff. */
export const SessionSchema = z.object({
  id: z.string(),
  kind: z.enum(['web', 'editor']),
  name: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  /** The session of the token making this request. */
  current: z.boolean(),
});
export type Session = z.infer<typeof SessionSchema>;

/** POST /api/v1/settings/sessions/revoke-all: sign out everywhere, or everywhere else. */
export const RevokeAllSessionsSchema = z.strictObject({ keepCurrent: z.boolean().default(false) });
export type RevokeAllSessions = z.infer<typeof RevokeAllSessionsSchema>;

/**
 * The revoke-all body as the route reads it: a client may leave it out (it then arrives as null),
 * which has always meant `{}`, signing out everywhere.
 */
export const RevokeAllSessionsBodySchema = z.preprocess((body) => body ?? {}, RevokeAllSessionsSchema);

/** GET /api/v1/settings/eula: the caller's record and the version their domain asks for now. */
export const EulaStatusSchema = z.object({ eula: EulaSchema, currentVersion: z.string() });
export type EulaStatus = z.infer<typeof EulaStatusSchema>;

/** POST /api/v1/settings/eula/accept: accepts the version shown, which must be the current one. */
export const EulaAcceptSchema = z.strictObject({ version: z.string().min(1).max(40) });
export type EulaAccept = z.infer<typeof EulaAcceptSchema>;

export const EulaVersionSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'Letters, digits, dots, dashes and underscores only');

/**
 * GET /api/v1/settings/domain (Admin+; a SuperAdmin may pass `?domain=`). `timeZone`: the zone of
 * the domain's days, weeks and months (budget periods, usage reports).
 */
export const DomainSettingsSchema = z.object({
  domain: z.string(),
  eulaVersion: z.string(),
  timeZone: z.string(),
});
export type DomainSettings = z.infer<typeof DomainSettingsSchema>;

/**
 * PUT /api/v1/settings/domain, one setting or both. A new `eulaVersion` sets `eula.pendingRevision`
 * (and `pendingTimestamp`) for every user of the domain: they accept the terms again at next sign-in.
 */
export const DomainSettingsUpdateSchema = z
  .strictObject({ eulaVersion: EulaVersionSchema.optional(), timeZone: TimeZoneSchema.optional() })
  .refine((b) => b.eulaVersion !== undefined || b.timeZone !== undefined, {
    message: 'Name a setting to change: eulaVersion or timeZone',
  });
export type DomainSettingsUpdate = z.infer<typeof DomainSettingsUpdateSchema>;
