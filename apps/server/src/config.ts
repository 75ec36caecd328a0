import path from 'node:path';
import { AttachmentLimits, EmailSchema } from '@assistente/contracts';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .url()
  .optional()
  .or(z.literal('').transform(() => undefined));

/** A comma list: items trimmed, empty ones dropped (`a, b,` → `[a, b]`). */
const commaList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

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
    .transform((s) => commaList(s.toLowerCase())),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: z.string().optional(),
  OLLAMA_BASE_URL: optionalUrl,
  DEFAULT_MODEL: z
    .string()
    .regex(/^[a-z0-9-]+:.+$/, 'DEFAULT_MODEL must look like provider:model')
    .optional(),
  /**
   * The output cap a model call is held to in budgets when it sets none (docs/ARCHITECTURE.md#usage-prices-and-budgets).
   */
  DEFAULT_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(1).max(1_000_000).default(4096),
  /** Knowledge embeddings (`provider:model`); default: the first provider listing an embedding model. */
  EMBEDDING_MODEL: z
    .string()
    .regex(/^[A-Za-z0-9_-]+:.+$/, 'EMBEDDING_MODEL must look like provider:model')
    .optional(),
  /** The image model santitos' `generate_image` uses (`provider:model`); unset: the first a provider lists. */
  IMAGE_MODEL: z
    .string()
    .regex(/^[A-Za-z0-9_-]+:.+$/, 'IMAGE_MODEL must look like provider:model')
    .optional(),
  /** How often a Confluence knowledge source syncs again on its own (docs/ARCHITECTURE.md#knowledge). */
  KNOWLEDGE_SYNC_INTERVAL_MS: z.coerce.number().int().min(60_000).max(604_800_000).default(3_600_000),
  /**
   * Comma list of `host` or `host:port` patterns (`*.corp.example` allowed) that a domain Admin's
   * provider base URL may point at even when it resolves to a private address (docs/ARCHITECTURE.md#model-providers).
   */
  PROVIDER_URL_ALLOWLIST: z
    .string()
    .default('')
    .transform((s) => commaList(s.toLowerCase())),
  /**
   * An instance-wide OpenID Connect provider for single sign-on (docs/ARCHITECTURE.md#single-sign-on), trusted like the other
   * env settings: its issuer is reached without the SSRF rule. Needs OIDC_ISSUER and OIDC_CLIENT_ID.
   */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  OIDC_DISPLAY_NAME: z.string().max(120).optional(),
  /** Comma list of the e-mail domains the provider vouches for; none: nobody can sign in with it. */
  OIDC_DOMAINS: z
    .string()
    .default('')
    .transform((s) => commaList(s.toLowerCase())),
  /** Whether someone unknown is created on first sign-in, and with which role. */
  OIDC_AUTO_PROVISION: z
    .string()
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  OIDC_DEFAULT_ROLE: z.enum(['Viewer', 'Editor', 'Admin']).default('Viewer'),
  /** Agents websocket: generations one user may run at once, and chat sends per minute. */
  AGENT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(1000).default(3),
  AGENT_SENDS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** OpenAI-compatible API (docs/ARCHITECTURE.md#api-keys-and-the-openai-compatible-api): requests one API key may make per minute. */
  API_KEY_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Threads that run model calls (default: the cores left beside the main thread, 1 to 4). */
  MODEL_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /**
   * A provider that sends nothing for this long after the call, or between two chunks, is given
   * up on: the answer ends as an error and its slot is free (a hung provider held it for minutes).
   */
  PROVIDER_FIRST_BYTE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  PROVIDER_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** A tool call (an MCP server's) that takes longer fails; the model reads that it timed out. */
  TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** An MCP connection unused this long is closed (one is kept per user and server). */
  MCP_IDLE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * A LibreChat-compatible Code Interpreter API (`…/v1`): santitos' `code_interpreter` runs code
   * there, never in this process. Unset: the tool is not offered.
   */
  CODE_INTERPRETER_URL: optionalUrl,
  CODE_INTERPRETER_API_KEY: z.string().optional(),
  EDITOR_DEEP_LINK: z.string().url().default('vscode://assistente.assistente-vscode/auth-callback'),
  /**
   * Origins of browser-hosted editors (code-server, Codespaces-like) the handoff may send a code to, after
   * the user confirms; an exact origin each, since a code sent elsewhere is an account takeover.
   */
  EDITOR_CALLBACK_ORIGINS: z
    .string()
    .default('')
    .transform((s, ctx) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .flatMap((o) => {
          const origin = URL.canParse(o) ? new URL(o).origin : '';
          const exact = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/.test(origin);
          if (!exact || o.replace(/\/$/, '').toLowerCase() !== origin) {
            ctx.addIssue({
              code: 'custom',
              message: `"${o}" is not an http(s) origin (scheme://host[:port])`,
            });
            return [];
          }
          return [origin];
        }),
    ),
  /** The editor extension's .vsix the handoff page offers (default: the newest one built in apps/vscode). */
  EDITOR_VSIX: z.string().optional(),
  /**
   * The bearer token `GET /metrics` asks of Prometheus (docs/ARCHITECTURE.md#metrics); unset, the
   * figures are not served at all (404).
   */
  METRICS_TOKEN: z
    .string()
    .min(16, 'METRICS_TOKEN must have at least 16 characters')
    .optional()
    .or(z.literal('').transform(() => undefined)),
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
  /** Comma list of services this process hosts; all by default (docs/ARCHITECTURE.md#services-in-one-process). */
  SERVICES: z
    .string()
    .default('all')
    .transform(commaList)
    .pipe(
      z
        .array(
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
          // An empty list would start a process that serves nothing but its health checks.
        )
        .min(1, 'SERVICES must name at least one service (or all)'),
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
  // Read once: zod's compiled fast path for an object schema cost more to generate than this one
  // parse (≈ 0.1 s of a start, docs/ARCHITECTURE.md#build-and-run).
  const parsed = ConfigSchema.safeParse(env, { jitless: true });
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
