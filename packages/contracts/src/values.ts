// The contracts' constants and helpers that screens use without any schema, kept free of zod like
// roles.ts and sso-codes.ts: a screen that imports only these does not download the schema library
// (the chats' and the embedded chat's JavaScript budgets have no room for it;
// docs/ARCHITECTURE.md#calling-the-api). The schemas built on them import them from here.

/**
 * The closed set of error codes every service but identity answers with, over HTTP and in the
 * agents websocket's `error` frames alike. The web translates each by code, e.g. `NO_PROVIDER` →
 * "no AI provider is configured; an Admin can add one in Settings → AI models".
 */
export const ErrorCodes = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'USER_NOT_FOUND',
  'DOMAIN_NOT_FOUND',
  'DEPARTMENT_NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'QUOTA_EXCEEDED',
  'RATE_LIMITED',
  'INVALID_GRANT',
  'INTERNAL',
  'UNAVAILABLE',
  /** Nothing configured (no domain provider, no instance-wide one). */
  'NO_PROVIDER',
  /** The chat's chosen model is offered by no configured provider (any more). */
  'MODEL_UNAVAILABLE',
  /** The domain's model access rules close the model to the caller (docs/ARCHITECTURE.md#model-access). */
  'MODEL_NOT_ALLOWED',
  /** The provider refused or failed (bad key, rate limit, outage, blocked URL). */
  'PROVIDER_ERROR',
  /** The provider sent nothing for too long (PROVIDER_FIRST_BYTE_TIMEOUT_MS, PROVIDER_IDLE_TIMEOUT_MS). */
  'PROVIDER_TIMEOUT',
  /** The user already has the maximum number of answers generating. */
  'TOO_MANY_GENERATIONS',
  /** A websocket frame that is not JSON or not a known frame. */
  'BAD_FRAME',
  /** An embedded chat asked for from a site its virtual account does not allow (docs/ARCHITECTURE.md#embed-contract). */
  'ORIGIN_NOT_ALLOWED',
  /** A signed visitor whose signature is wrong or outside its 10-minute window. */
  'INVALID_VISITOR_SIGNATURE',
  /** The file store (S3 or the data directory) cannot be reached: nothing was stored, try again. */
  'STORAGE_UNAVAILABLE',
  /** A budget that covers the caller has no room for this call until it resets (`details.resetsAt`). */
  'BUDGET_EXCEEDED',
  /** A money budget covers the caller and the model has no price: refused, never counted as free. */
  'PRICE_MISSING',
  /** The domain's PII filter blocks what was sent (`details.kinds`: the kinds found, never the text). */
  'PII_BLOCKED',
  /** The person is under legal hold: nothing of theirs may be deleted until it is lifted. */
  'LEGAL_HOLD',
] as const;

/** Limits of one upload; the server's own limit is `UPLOAD_MAX_BYTES`. */
export const AttachmentLimits = {
  /** The default per-file limit (20 MiB). */
  maxBytes: 20 * 1024 * 1024,
  /** At most this many attachments on one message. */
  perMessage: 10,
} as const;

/**
 * The tools Assistente itself offers santitos (docs/ARCHITECTURE.md#built-in-tools), named in
 * santitos and policy rules as `builtin:{name}`.
 */
export const BuiltinToolNames = [
  'web_search',
  'fetch_page',
  'knowledge_search',
  'generate_image',
  'code_interpreter',
  /**
   * Saves a memory for the person who asks (docs/ARCHITECTURE.md#memory): offered in their own chats
   * whenever their domain has memory on, whatever the santito's tools; never picked for a santito.
   */
  'remember',
] as const;

/**
 * A model as people read it: "OpenAI · gpt-4.1-mini" — the provider's name, never its internal id
 * (`p4088f0b7e819:qa-fast`). Without a known provider (since removed), the model's name alone.
 */
export function modelDisplayName(modelId: string, providerLabel?: string | null): string {
  const colon = modelId.indexOf(':');
  const name = colon === -1 ? modelId : modelId.slice(colon + 1);
  return providerLabel ? `${providerLabel} · ${name}` : name;
}

/** The provider id of a `provider:model` id. */
export function providerOf(modelId: string): string {
  const colon = modelId.indexOf(':');
  return colon === -1 ? '' : modelId.slice(0, colon);
}

export const MICROS_PER_UNIT = 1_000_000;

/** Exact micros of a decimal amount (from its decimal text, never by float multiplication). */
export function toMicros(amount: number): number {
  const [whole = '0', fraction = ''] = String(amount).split('.');
  return Number(whole) * MICROS_PER_UNIT + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** The decimal amount of `micros` (exact for amounts below 2^53 micros). */
export const fromMicros = (micros: number): number => micros / MICROS_PER_UNIT;

/** The longest range one summary covers: a year and a day. */
export const USAGE_MAX_RANGE_DAYS = 367;

/** How long retention rules may keep things (docs/ARCHITECTURE.md#governance). */
export const RetentionLimits = {
  /** The longest a rule may keep anything: ten years. */
  maxDays: 3_650,
  /** Rows one statement of a retention run deletes, so streams and requests never wait long on it. */
  batchRows: 1_000,
} as const;

/**
 * Why an address the server must reach was refused or could not be reached: `private` (it is, or
 * resolves to, a private address), `unresolvable` (no such name), `refused` (nothing listens),
 * `timeout` (no answer in time), `https_required` (plain http outside the allow-list).
 */
export const AddressProblems = [
  'invalid',
  'scheme',
  'credentials',
  'https_required',
  'private',
  'unresolvable',
  'refused',
  'timeout',
  'redirects',
] as const;

/** What the PII and credential filter recognises (docs/ARCHITECTURE.md#pii-filter). */
export const PiiKinds = ['credential', 'jwt', 'email', 'phone', 'card', 'iban', 'cpf', 'cnpj'] as const;
