import type { KnowledgeDocument, KnowledgeSource } from '@assistente/contracts';
import { Badge } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';

/** A source's or a document's status, coloured as failed, done or under way. */
export function StatusBadge({ status }: { status: KnowledgeSource['status'] | KnowledgeDocument['status'] }) {
  const { t } = useTranslation();
  const color =
    status === 'error' ? 'error' : status === 'ready' || status === 'idle' ? 'secondary' : 'primary';
  return (
    <Badge variant="light" color={color} size="sm">
      {t(`knowledge.status.${status}`)}
    </Badge>
  );
}
