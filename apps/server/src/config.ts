import path from 'node:path';
import { AttachmentLimits, EmailSchema } from '@assistente/contracts';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined));

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./.data'),
  PUBLIC_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  STORAGE_URL: z.string().optional(),
  /** Largest file one upload may carry (default 20 MiB); the web app checks the same number. */
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1).default(AttachmentLimits.maxBytes),
  /** File storage each domain may use, attachments and avatars together (default 1 GiB). */
  STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024 * 1024),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Assistente <no-reply@localhost>'),
  SECRET_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/=_-]{32,}$/, 'SECRET_KEY must be at least 32 base64 characters')
    .optional(),
  ADMIN_EMAIL: EmailSchema.optional().or(z.literal('').transform(() => undefined)),
  ADMIN_PASSWORD: z
    .string()
    .min(8, 'ADMIN_PASSWORD must have at least 8 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PREMIUM_DOMAINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    ),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: z.string().optional(),
  OLLAMA_BASE_URL: optionalUrl,
  DEFAULT_MODEL: z
    .string()
    .regex(/^[a-z0-9-]+:.+$/, 'DEFAULT_MODEL must look like provider:model')
    .optional(),
  /**
   * Comma list of `host` or `host:port` patterns (`*.corp.example` allowed) that a domain Admin's
   * provider base URL may point at even when it resolves to a private address (DESIGN §5).
   */
  PROVIDER_URL_ALLOWLIST: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Agents websocket: generations one user may run at once, and chat sends per minute. */
  AGENT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(3),
  AGENT_SENDS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Threads that run model calls (default: the cores left beside the main thread, 1 to 4). */
  MODEL_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * A provider that sends nothing for this long after the call, or between two chunks, is given
   * up on: the answer ends as an error and its slot is free (a hung provider held it for minutes).
   */
  PROVIDER_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  PROVIDER_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  EDITOR_DEEP_LINK: z.string().url().default('vscode://assistente.assistente-vscode/auth-callback'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` for a log shipper, `pretty` for a person; default: pretty on a terminal, else json. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  PROJECT_ID: z.string().default('assistente'),
  IDENTITY_PRIVATE_KEY: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  WEB_DIST: z.string().optional(),
  /** Comma list of services this process hosts; all by default (DESIGN §1 scale-out). */
  SERVICES: z
    .string()
    .default('all')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum([
          'all',
          'identity',
          'accounts',
          'chats',
          'agents',
          'codeassist',
          // Only what a process can really host: a name that did nothing would split a cluster
          // in a way nobody could see.
          'web',
        ]),
      ),
    ),
  KEY_PREFIX: z.string().default('assistente:'),
});

export type Config = z.infer<typeof ConfigSchema> & {
  publicUrl: string;
  dataDir: string;
  logFormat: 'json' | 'pretty';
};

/** Reads and validates the environment; throws one clear message naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  const logFormat = c.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  return { ...c, publicUrl, dataDir: path.resolve(c.DATA_DIR), logFormat };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
