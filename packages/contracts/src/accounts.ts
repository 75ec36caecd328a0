import { z } from 'zod';
import { isValidCnpj, normalizeCnpj } from './cnpj.ts';
import { EmailSchema } from './email.ts';
import { Roles } from './roles.ts';

export { cnpjCheckDigits, formatCnpj, isValidCnpj, normalizeCnpj } from './cnpj.ts';

export { hasRole, type Role, Roles } from './roles.ts';
export const RoleSchema = z.enum(Roles);

export const CreatorSchema = z.object({ name: z.string(), email: z.string() });

export const EulaSchema = z.strictObject({
  accept: z.boolean(),
  timestamp: z.string().nullable(),
  version: z.string().default('v1'),
  pendingRevision: z.boolean().default(true),
  pendingTimestamp: z.string().nullable(),
  isPrivacyPolicy: z.boolean().default(true),
});
export type Eula = z.infer<typeof EulaSchema>;

export const UserSchema = z.object({
  _id: z.string(),
  active: z.boolean(),
  displayName: z.string(),
  email: z.string(),
  domain: z.string(),
  department: z.string(),
  role: RoleSchema,
  type: z.string(),
  creator: CreatorSchema,
  eula: EulaSchema,
  /** In lists: invited, and no first password set yet (the account cannot sign in). */
  invitePending: z.boolean().optional(),
  /**
   * To those who administer the person: true while under legal hold (PUT /api/v1/user/{id}/legal_hold),
   * absent otherwise. Never shown to the person.
   */
  legalHold: z.boolean().optional(),
});
export type User = z.infer<typeof UserSchema>;

/** PUT /api/v1/user/{id}: the full body; who may change which field is decided by the service. */
export const UserUpdateSchema = z.strictObject({
  ...UserSchema.shape,
  _id: z.string().optional(),
  displayName: z.string().trim().min(1).max(120),
  /** Derived by the server (see UserSchema); accepted so a user read can be sent back, never stored. */
  invitePending: z.boolean().optional(),
  /** Changed only through PUT /api/v1/user/{id}/legal_hold; accepted here so a user read can be sent back. */
  legalHold: z.boolean().optional(),
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

export const UserCreateSchema = z.strictObject({
  email: EmailSchema,
  displayName: z.string().trim().min(1).max(120),
  domain: z.string().min(1),
  department: z.string().min(1),
  role: RoleSchema,
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

export const DomainSchema = z.object({
  _id: z.string(),
  domain: z.string(),
  active: z.boolean(),
  displayName: z.string(),
  cnpj: z.string().nullable(),
  premium: z.boolean(),
  isTrusted: z.boolean(),
  creator: CreatorSchema,
});
export type Domain = z.infer<typeof DomainSchema>;

export const DomainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
    'Invalid domain name',
  );

/** A CNPJ in either format (numeric or alphanumeric), punctuated or bare; parses to the 14 bare characters. */
export const CnpjSchema = z
  .string()
  .max(32)
  .refine(isValidCnpj, 'Invalid CNPJ: check the digits')
  .transform((s) => normalizeCnpj(s) ?? s);

/** An optional CNPJ field: empty string or null means "none". */
const CnpjFieldSchema = z.union([z.null(), z.literal('').transform(() => null), CnpjSchema]);

export const DomainCreateSchema = z.strictObject({
  domain: DomainNameSchema,
  displayName: z.string().trim().min(1).max(120),
  cnpj: CnpjFieldSchema.optional(),
  premium: z.boolean().optional(),
  isTrusted: z.boolean().optional(),
});
export type DomainCreate = z.infer<typeof DomainCreateSchema>;

/**
 * PUT /api/v1/domain/{id} (SuperAdmin): any subset of the editable fields. `_id`, `domain` and
 * `creator` may be sent back as read (a full-record round trip) but never changed; `premium` is
 * compared with the effective value the API answers.
 */
export const DomainUpdateSchema = z.strictObject({
  _id: z.string().optional(),
  domain: z.string().optional(),
  displayName: z.string().trim().min(1).max(120).optional(),
  cnpj: CnpjFieldSchema.optional(),
  premium: z.boolean().optional(),
  isTrusted: z.boolean().optional(),
  active: z.boolean().optional(),
  creator: CreatorSchema.optional(),
});
export type DomainUpdate = z.infer<typeof DomainUpdateSchema>;

export const DepartmentSchema = z.object({
  _id: z.string(),
  displayName: z.string(),
  domain: z.string(),
  active: z.boolean(),
});
export type Department = z.infer<typeof DepartmentSchema>;

/** POST /api/v1/department (Admin+): `domain` defaults to the caller's; only a SuperAdmin may name another. */
export const DepartmentCreateSchema = z.strictObject({
  displayName: z.string().trim().min(1).max(120),
  domain: z.string().optional(),
});
export type DepartmentCreate = z.infer<typeof DepartmentCreateSchema>;

/** PUT /api/v1/department/{id} (Admin+ of its domain): any subset; `_id` and `domain` never change. */
export const DepartmentUpdateSchema = z.strictObject({
  _id: z.string().optional(),
  displayName: z.string().trim().min(1).max(120).optional(),
  domain: z.string().optional(),
  active: z.boolean().optional(),
});
export type DepartmentUpdate = z.infer<typeof DepartmentUpdateSchema>;

/**
 * `?limit=&cursor=&q=` of every list. Not strict: the web client adds `domain` and `department` to
 * every call as logging hints (older clients also `user` and `email`), and they must not break a request.
 */
export const ListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  q: z.string().max(200).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** Lists answer a JSON array; these headers carry the total and the next page's opaque cursor. */
export const PageHeaders = { total: 'X-Total-Count', nextCursor: 'X-Next-Cursor' } as const;

/**
 * The `domain` query parameter: honoured as a filter for a SuperAdmin only; for everyone else it is
 * the client's logging hint, so a malformed one is ignored rather than refused.
 */
export const DomainHintSchema = z.string().max(253).optional().catch(undefined);

const BooleanQuerySchema = z.enum(['true', 'false']).transform((v) => v === 'true');

export const SortOrderSchema = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof SortOrderSchema>;

/** `role` sorts by rank (Viewer < Editor < Admin < SuperAdmin), not alphabetically. */
export const UserSortFields = ['displayName', 'email', 'role', 'createdAt'] as const;
export type UserSortField = (typeof UserSortFields)[number];

/**
 * GET /api/v1/user (Admin: own domain; SuperAdmin: every domain, or `?domain=`). `q` searches the
 * name and the email (case-insensitive, anywhere in them); the order is always stable (ties by id)
 * and a cursor only continues the sort it came from.
 */
export const UserListQuerySchema = ListQuerySchema.extend({
  sort: z.enum(UserSortFields).default('displayName'),
  order: SortOrderSchema.default('asc'),
  role: RoleSchema.optional(),
  active: BooleanQuerySchema.optional(),
  departmentId: z.string().min(1).max(200).optional(),
  domain: DomainHintSchema,
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

/** GET /api/v1/domain: everyone gets their own domain; a SuperAdmin every one. `q` searches name and DNS name. */
export const DomainListQuerySchema = ListQuerySchema.extend({
  active: BooleanQuerySchema.optional(),
});
export type DomainListQuery = z.infer<typeof DomainListQuerySchema>;

/** GET /api/v1/department: the caller's domain; a SuperAdmin may pick one with `?domain=`. */
export const DepartmentListQuerySchema = ListQuerySchema.extend({ domain: DomainHintSchema });
export type DepartmentListQuery = z.infer<typeof DepartmentListQuerySchema>;

/** POST /api/v1/user answers the new user and whether the invitation mail left. */
export const UserCreatedSchema = UserSchema.extend({ invitationSent: z.boolean() });
export type UserCreated = z.infer<typeof UserCreatedSchema>;

/** POST /api/v1/user/{id}/invitation: a new set-password link was mailed. */
export const InvitationSentSchema = z.object({ email: z.string(), sent: z.literal(true) });
export type InvitationSent = z.infer<typeof InvitationSentSchema>;

/** Answer of every "sign out sessions" call. */
export const SessionsRevokedSchema = z.object({ revoked: z.number().int().min(0) });
export type SessionsRevoked = z.infer<typeof SessionsRevokedSchema>;
