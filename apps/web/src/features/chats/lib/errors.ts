/** Error codes with their own translated text (`chats.errors.<code>`); others show the server's message. */
export const TRANSLATED_ERROR_CODES = [
  'NO_PROVIDER',
  'MODEL_UNAVAILABLE',
  'PROVIDER_ERROR',
  'PROVIDER_TIMEOUT',
  'TOO_MANY_GENERATIONS',
  'RATE_LIMITED',
  'CONFLICT',
  'UNAVAILABLE',
  'QUOTA_EXCEEDED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INTERNAL',
  'NOT_FOUND',
  'OFFLINE',
  'BAD_FRAME',
] as const;
export type TranslatedErrorCode = (typeof TRANSLATED_ERROR_CODES)[number];

export function isTranslatedCode(code: string | null | undefined): code is TranslatedErrorCode {
  return (TRANSLATED_ERROR_CODES as readonly string[]).includes(code ?? '');
}

/**
 * Whether details are worth showing under the translated text: what was
 * wrong with the user's own input, for everyone; a provider's technical failure, for the Admins
 * who can fix it.
 */
export function showsServerDetail(code: string, admin: boolean): boolean {
  if (code === 'VALIDATION_FAILED' || code === 'BAD_REQUEST') return true;
  return admin && isProviderCode(code);
}

/** A failure of the AI provider, whose details come as a reason to translate. */
export function isProviderCode(code: string): boolean {
  return code === 'PROVIDER_ERROR' || code === 'PROVIDER_TIMEOUT';
}
