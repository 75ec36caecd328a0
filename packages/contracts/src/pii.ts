import { z } from 'zod';
import { PiiKinds } from './values.ts';

export const PiiKindSchema = z.enum(PiiKinds);
export type PiiKind = z.infer<typeof PiiKindSchema>;

/** `redact` replaces each match with its kind (`[CPF]`); `block` refuses the text with `PII_BLOCKED`. */
export const PiiModeSchema = z.enum(['off', 'redact', 'block']);
export type PiiMode = z.infer<typeof PiiModeSchema>;

/** GET·PUT /api/v1/settings/pii?domain= (Admin). */
export const PiiSettingsSchema = z.strictObject({
  mode: PiiModeSchema,
  kinds: z
    .array(PiiKindSchema)
    .min(1)
    .refine((kinds) => new Set(kinds).size === kinds.length, { message: 'Each kind may appear once.' }),
});
export type PiiSettings = z.infer<typeof PiiSettingsSchema>;

/** A PII_BLOCKED refusal's `details`: the kinds found, in `PiiKinds` order, never the text. */
export const PiiBlockedDetailsSchema = z.object({ kinds: z.array(PiiKindSchema).min(1) });
export type PiiBlockedDetails = z.infer<typeof PiiBlockedDetailsSchema>;
