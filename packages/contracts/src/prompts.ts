import { z } from 'zod';

const IsoDate = z.iso.datetime({ offset: true });

/**
 * Who sees a prompt (docs/ARCHITECTURE.md#prompt-library): its author only, the author's department,
 * or the whole domain. Editors and above write department prompts, Admins domain prompts.
 */
export const PromptScopeSchema = z.enum(['private', 'department', 'domain']);
export type PromptScope = z.infer<typeof PromptScopeSchema>;

export const PromptLimits = {
  titleMax: 120,
  contentMax: 20_000,
  commandMax: 40,
  variablesMax: 20,
  /** Versions kept per prompt; older ones are dropped. */
  versionsKept: 50,
} as const;

/** `{{name}}` in a prompt's content: letters, digits, `_` and `-`, up to 40 characters. */
export const PROMPT_VARIABLE_RE = /\{\{\s*([\p{L}\p{N}_-]{1,40})\s*\}\}/gu;

/** The distinct variable names of a prompt's content, in the order they first appear. */
export function promptVariables(content: string): string[] {
  const names: string[] = [];
  for (const m of content.matchAll(PROMPT_VARIABLE_RE)) {
    const name = m[1] as string;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The content with each `{{name}}` replaced by its value (a missing value leaves the placeholder). */
export function fillPrompt(content: string, values: Record<string, string>): string {
  return content.replace(PROMPT_VARIABLE_RE, (whole, name: string) => values[name] ?? whole);
}

/** What `/` types to find it: lowercase letters, digits and `-`, starting with a letter. */
export const PromptCommandSchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9-]*$/, 'command: lowercase letters, digits and "-", starting with a letter')
  .max(PromptLimits.commandMax);

export const PromptSchema = z.object({
  id: z.string(),
  title: z.string(),
  command: z.string(),
  content: z.string(),
  scope: PromptScopeSchema,
  /** The department of a department prompt; null otherwise. */
  departmentId: z.string().nullable(),
  version: z.number().int().min(1),
  variables: z.array(z.string()),
  authorName: z.string(),
  /** Whether the caller may change or delete it. */
  editable: z.boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type Prompt = z.infer<typeof PromptSchema>;

/** POST /api/v1/prompts. A department prompt is for the author's own department. */
export const PromptCreateSchema = z.strictObject({
  title: z.string().trim().min(1).max(PromptLimits.titleMax),
  command: PromptCommandSchema,
  content: z.string().min(1).max(PromptLimits.contentMax),
  scope: PromptScopeSchema.default('private'),
});
export type PromptCreate = z.input<typeof PromptCreateSchema>;

/** PUT /api/v1/prompts/{id}: the fields given change, as a new version. */
export const PromptUpdateSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(PromptLimits.titleMax).optional(),
    command: PromptCommandSchema.optional(),
    content: z.string().min(1).max(PromptLimits.contentMax).optional(),
    scope: PromptScopeSchema.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: 'Nothing to update: give title, command, content or scope',
  });
export type PromptUpdate = z.infer<typeof PromptUpdateSchema>;

/** GET /api/v1/prompts: what the caller sees, `q` matching title or command. */
export const PromptListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  scope: PromptScopeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
  cursor: z.string().max(500).optional(),
});
export type PromptListQuery = z.infer<typeof PromptListQuerySchema>;

/** GET /api/v1/prompts/{id}/versions: newest first. */
export const PromptVersionSchema = z.object({
  version: z.number().int().min(1),
  title: z.string(),
  command: z.string(),
  content: z.string(),
  scope: PromptScopeSchema,
  authorName: z.string(),
  createdAt: IsoDate,
});
export type PromptVersion = z.infer<typeof PromptVersionSchema>;
