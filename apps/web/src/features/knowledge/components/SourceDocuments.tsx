import type { KnowledgeDocument, KnowledgeSource } from '@assistente/contracts';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { useDeleteDocument, useKnowledgeDocuments } from '../hooks/useKnowledge.ts';
import { knowledgeFailureText } from '../lib/failures.ts';
import { StatusBadge } from './StatusBadge.tsx';

/** Documents shown at first, and added by each "show more": a space of thousands stays quick to open. */
const DOCUMENTS_SHOWN = 200;

/** A source's documents, each with its status (and delete, for uploaded files). */
export function SourceDocuments({ source }: { source: KnowledgeSource }) {
  const { t } = useTranslation();
  const docs = useKnowledgeDocuments(source.sourceId, true);
  const remove = useDeleteDocument();
  const confirm = useConfirm<KnowledgeDocument>();
  const [shown, setShown] = useState(DOCUMENTS_SHOWN);
  if (docs.isPending) return <Text size="sm">{t('knowledge.loading')}</Text>;
  if (docs.isError)
    return (
      <Text size="sm" c="error.7">
        {errorMessage(docs.error, t('knowledge.load_failed'))}
      </Text>
    );
  if (docs.data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('knowledge.documents.empty')}
      </Text>
    );
  const left = docs.data.length - shown;
  return (
    <Stack gap={4} data-testid="knowledge-documents">
      {docs.data.slice(0, shown).map((d) => (
        <Group key={d.documentId} justify="space-between" wrap="nowrap" gap="xs">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" truncate>
              {d.title}
            </Text>
            {d.error ? (
              <Text size="xs" c="error.7">
                {knowledgeFailureText(t, d.errorReason, d.error)}
              </Text>
            ) : (
              <Text size="xs" c="dimmed">
                {t('knowledge.documents.chunks', { count: d.chunks })}
              </Text>
            )}
          </Stack>
          <Group gap={4} wrap="nowrap">
            <StatusBadge status={d.status} />
            {source.kind === 'files' ? (
              <IconAction
                label={t('knowledge.documents.delete')}
                icon={<IconTrash size={14} />}
                danger
                loading={remove.isPending && remove.variables?.documentId === d.documentId}
                onClick={() => confirm.ask(d)}
              />
            ) : null}
          </Group>
        </Group>
      ))}
      {left > 0 ? (
        <Button
          variant="subtle"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setShown((n) => n + DOCUMENTS_SHOWN)}
        >
          {t('knowledge.documents.more', { count: left })}
        </Button>
      ) : null}
      <ConfirmDialog
        {...confirm.dialog(
          (d) => remove.mutateAsync({ id: source.sourceId, documentId: d.documentId }),
          (err) => errorMessage(err, t('knowledge.delete_failed')),
        )}
        title={t('knowledge.documents.delete')}
        message={t('knowledge.documents.delete_message', { name: confirm.target?.title ?? '' })}
        confirmLabel={t('knowledge.delete')}
        cancelLabel={t('knowledge.cancel')}
        loading={remove.isPending}
      />
    </Stack>
  );
}
