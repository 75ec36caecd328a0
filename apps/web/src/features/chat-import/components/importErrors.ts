import type { TFunction } from '../../../lib/i18n/index.ts';
import type { ChatImportError } from '../api.ts';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

/** A limit in bytes as people read it: 1 GB, 512 MB (the binary units, named as everyone names them). */
export const sizeLimit = (bytes: number) =>
  bytes >= GiB ? `${+(bytes / GiB).toFixed(1)} GB` : `${Math.round(bytes / MiB)} MB`;

const LIMITS = new Set(['upload', 'entries', 'uncompressed', 'ratio', 'json', 'conversations']);
const REASONS = new Set([
  'unsupported_file',
  'not_export',
  'no_conversations',
  'bad_json',
  'bad_zip',
  'running',
  'network',
]);

/** Why an import was refused, in the reader's words; the server's own message when it is none of the known reasons. */
export function importErrorText(error: ChatImportError, t: TFunction, locale: string): string {
  if (error.reason === 'limit' && error.limit && LIMITS.has(error.limit)) {
    const max = error.max ?? 0;
    return t(`chatImport.errors.limit_${error.limit}`, {
      max: max.toLocaleString(locale),
      size: sizeLimit(max),
    });
  }
  if (error.reason && REASONS.has(error.reason)) return t(`chatImport.errors.${error.reason}`);
  if (error.status === 415) return t('chatImport.errors.unsupported_file');
  return t('chatImport.errors.generic', { message: error.message });
}
