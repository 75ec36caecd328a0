import { z } from 'zod';
import { MessageIdSchema, MessageSchema } from './chats.ts';

const IsoDate = z.iso.datetime({ offset: true });

/**
 * Who may open a share link (docs/ARCHITECTURE.md#share-links): everyone signed in to the owner's
 * domain, the owner's department only, or anyone with the link where the domain allows public links.
 */
export const ShareAudienceSchema = z.enum(['domain', 'department', 'public']);
export type ShareAudience = z.infer<typeof ShareAudienceSchema>;

/** A share id: 22 url-safe random characters (128 bits), so links cannot be guessed. */
export const ShareIdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/);

/** POST /api/v1/chats/{chatId}/shares: a snapshot of the branch ending at `leaf` (default: the newest message's). */
export const ShareCreateSchema = z.strictObject({
  audience: ShareAudienceSchema,
  /** When the link stops working; must be in the future. Absent: it works until revoked. */
  expiresAt: IsoDate.optional(),
  leaf: MessageIdSchema.optional(),
});
export type ShareCreate = z.infer<typeof ShareCreateSchema>;

/** A link as its owner sees it (the answer of POST, and the items of GET /api/v1/shares). */
export const ShareSchema = z.object({
  shareId: z.string(),
  /** `{PUBLIC_URL}/s/{shareId}` */
  url: z.string(),
  /** The chat it was taken from; null once that chat is gone. */
  chatId: z.string().nullable(),
  title: z.string(),
  audience: ShareAudienceSchema,
  createdAt: IsoDate,
  expiresAt: IsoDate.nullable(),
  /** How many times it was opened (by anyone but its owner). */
  views: z.number().int().min(0),
  messageCount: z.number().int().min(0),
});
export type Share = z.infer<typeof ShareSchema>;

/** GET /api/v1/shares (the caller's own links, newest first). */
export const ShareListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
});
export type ShareListQuery = z.infer<typeof ShareListQuerySchema>;

/** GET /api/v1/shares/{shareId}: the snapshot as a reader sees it. Files are read through the share. */
export const SharedChatSchema = z.object({
  shareId: z.string(),
  title: z.string(),
  audience: ShareAudienceSchema,
  createdAt: IsoDate,
  expiresAt: IsoDate.nullable(),
  /** The owner's display name (never their email). */
  sharedBy: z.string(),
  /** The santito the chat talked to, by name; null for the domain's assistant. */
  santitoName: z.string().nullable(),
  /** The branch shared, root → leaf; attachments' `url` is `/api/v1/shares/{shareId}/files/{attachmentId}`. */
  messages: z.array(MessageSchema),
  /** Whether the reader is its owner (then views are not counted). */
  own: z.boolean(),
});
export type SharedChat = z.infer<typeof SharedChatSchema>;

/** POST /api/v1/shares/{shareId}/copy: the reader's new chat. */
export const ShareCopySchema = z.object({ chatId: z.string() });
export type ShareCopy = z.infer<typeof ShareCopySchema>;

/** GET·PUT /api/v1/settings/sharing?domain= (Admin): whether links may be opened without signing in. */
export const SharingSettingsSchema = z.strictObject({ publicLinks: z.boolean() });
export type SharingSettings = z.infer<typeof SharingSettingsSchema>;

/** GET /api/v1/shares/options: what the caller may share (any signed-in person), for the share dialog. */
export const ShareOptionsSchema = z.object({
  /** The caller's domain allows `public` links. */
  publicLinks: z.boolean(),
});
export type ShareOptions = z.infer<typeof ShareOptionsSchema>;
