import { z } from 'zod';

const IsoDate = z.iso.datetime({ offset: true });

/** docs/ARCHITECTURE.md#memory */
export const MemoryLimits = {
  /** One memory's text. */
  textMax: 500,
  /** Memories a person keeps. */
  perPerson: 200,
  /** What of them goes into a chat's instructions, newest first, counted as the model's tokens are estimated. */
  injectedTokens: 1_000,
} as const;

/** GET·PUT /api/v1/settings/memory?domain= (Admin). */
export const MemorySettingsSchema = z.strictObject({ enabled: z.boolean() });
export type MemorySettings = z.infer<typeof MemorySettingsSchema>;

export const MemorySchema = z.object({
  id: z.string(),
  text: z.string(),
  /** `assistant`: saved by the model's `remember` tool in a chat; `user`: written in settings. */
  source: z.enum(['user', 'assistant']),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type Memory = z.infer<typeof MemorySchema>;

/** GET /api/v1/me/memories: newest first, with whether the domain has memory on. */
export const MemoryListSchema = z.object({
  enabled: z.boolean(),
  memories: z.array(MemorySchema),
  /** How many of the newest fit in what a chat is given (MemoryLimits.injectedTokens). */
  injected: z.number().int().min(0),
});
export type MemoryList = z.infer<typeof MemoryListSchema>;

/** POST /api/v1/me/memories, PUT /api/v1/me/memories/{id}. */
export const MemoryInputSchema = z.strictObject({
  text: z.string().trim().min(1).max(MemoryLimits.textMax),
});
export type MemoryInput = z.infer<typeof MemoryInputSchema>;
