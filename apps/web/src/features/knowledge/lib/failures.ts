import type { KnowledgeFailure } from '@assistente/contracts';
import type { TFunction } from '../../../lib/i18n/index.ts';
import { addressText, failureText } from '../../providers/index.ts';

/**
 * Why a document was not indexed or a sync failed, in the reader's language; the server's English
 * line only for rows from before it kept a reason.
 */
export function knowledgeFailureText(
  t: TFunction,
  reason: KnowledgeFailure | undefined,
  fallback: string,
): string {
  if (!reason) return fallback;
  switch (reason.kind) {
    case 'provider':
      return t('knowledge.failure.provider', { reason: failureText(t, reason.failure, null) });
    case 'unreachable':
      return reason.address && reason.host
        ? addressText(t, reason.address, '', { host: reason.host })
        : t('knowledge.failure.unreachable');
    case 'too_much_text':
    case 'too_many_passages':
    case 'docx_too_many_parts':
      return t(`knowledge.failure.${reason.kind}`, { limit: reason.limit.toLocaleString() });
    case 'docx_too_large':
    case 'pdf_too_large':
      return t(`knowledge.failure.${reason.kind}`, { limit: String(reason.limitMb) });
    case 'unsupported':
      return t('knowledge.failure.unsupported', { type: reason.contentType });
    case 'space_missing':
      return t('knowledge.failure.space_missing', { spaces: reason.spaces.join(', ') });
    case 'http_status':
      return t('knowledge.failure.http_status', { status: String(reason.status) });
    default:
      return t(`knowledge.failure.${reason.kind}`);
  }
}
