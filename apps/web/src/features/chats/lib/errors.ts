/** Error codes with their own translated text (`chats.errors.<code>`); others show the server's message. */
export const TRANSLATED_ERROR_CODES = [
  'NO_PROVIDER',
  'MODEL_UNAVAILABLE',
  'PROVIDER_ERROR',
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
] as const;
export type TranslatedErrorCode = (typeof TRANSLATED_ERROR_CODES)[number];

export function isTranslatedCode(code: string | null | undefined): code is TranslatedErrorCode {
  return (TRANSLATED_ERROR_CODES as readonly string[]).includes(code ?? '');
}

/** Codes whose server message adds detail worth showing under the translated text. */
export function showsServerDetail(code: string): boolean {
  return code === 'PROVIDER_ERROR' || code === 'VALIDATION_FAILED' || code === 'BAD_REQUEST';
}
