import type { KnowledgeSource } from '@assistente/contracts';
import { Alert, Badge, Button, Collapse, Progress, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconRefresh, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { IconAction } from '../../../ui/IconAction.tsx';
import { ItemCard } from '../../../ui/ItemCard.tsx';
import { useSyncSource } from '../hooks/useKnowledge.ts';
import { knowledgeFailureText } from '../lib/failures.ts';
import { DocumentUploader } from './DocumentUploader.tsx';
import { SourceDocuments } from './SourceDocuments.tsx';
import { StatusBadge } from './StatusBadge.tsx';

/** A line of progress under a source: what is happening, and a bar of done out of total. */
function ProgressLine(props: { label: string; done: number; total: number; testId?: string }) {
  return (
    <Stack gap={2} data-testid={props.testId}>
      <Text size="xs">{props.label}</Text>
      <Progress value={props.total ? Math.round((100 * props.done) / props.total) : 0} size="sm" animated />
    </Stack>
  );
}

/** One knowledge source: its status and counts, sync, its progress, and its documents. */
export function SourceCard({ source, onDelete }: { source: KnowledgeSource; onDelete: () => void }) {
  const { t, i18n } = useTranslation();
  const sync = useSyncSource();
  const [open, setOpen] = useState(false);
  const syncing = source.status === 'syncing';
  // Uploads still being read: the source is not "ready" with whatever it has counted so far.
  const indexing = source.status === 'idle' ? (source.indexing ?? 0) : 0;
  return (
    <ItemCard
      testId="knowledge-source"
      title={source.displayName}
      badges={
        <>
          <Badge variant="outline" size="sm">
            {t(`knowledge.kinds.${source.kind}`)}
          </Badge>
          <StatusBadge status={indexing > 0 ? 'indexing' : source.status} />
        </>
      }
      actions={
        <>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            loading={sync.isPending}
            disabled={syncing}
            onClick={() => sync.mutate(source.sourceId)}
          >
            {t('knowledge.sync_now')}
          </Button>
          <IconAction
            label={t('knowledge.delete')}
            icon={<IconTrash size={16} />}
            onClick={onDelete}
            danger
          />
        </>
      }
      details={
        <>
          {`${t('knowledge.documents_count', { count: source.documents })} · ${t('knowledge.chunks_count', { count: source.chunks })}`}
          {source.lastSyncAt
            ? ` · ${t('knowledge.last_sync', { at: new Date(source.lastSyncAt).toLocaleString(i18n.language) })}`
            : ''}
          {source.confluence
            ? ` · ${source.confluence.baseUrl} · ${source.confluence.spaces.join(', ')}`
            : ''}
        </>
      }
    >
      {syncing && source.progress ? (
        <ProgressLine
          label={t('knowledge.progress', {
            done: String(source.progress.done),
            total: String(source.progress.total),
          })}
          done={source.progress.done}
          total={source.progress.total}
        />
      ) : syncing && source.kind === 'confluence' ? (
        // Claimed, its pages not yet counted: no total to show yet.
        <Text size="xs">{t('knowledge.counting')}</Text>
      ) : indexing > 0 ? (
        <ProgressLine
          label={t('knowledge.indexing', { count: indexing })}
          done={source.documents - indexing}
          total={source.documents}
          testId="knowledge-indexing"
        />
      ) : null}
      {source.error ? (
        <Alert color="error" variant="light" icon={<IconX size={16} />} role="alert" py={6}>
          {t('knowledge.sync_failed', {
            // The sentence goes on after the reason: its own full stop would double.
            error: knowledgeFailureText(t, source.errorReason, source.error).replace(/\.$/, ''),
          })}
        </Alert>
      ) : null}
      {sync.isError ? (
        <Text size="sm" c="error.7" role="alert">
          {errorMessage(sync.error, t('knowledge.sync_failed_generic'))}
        </Text>
      ) : null}
      {source.kind === 'files' ? <DocumentUploader sourceId={source.sourceId} /> : null}
      <Button
        variant="subtle"
        size="xs"
        px={4}
        leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        onClick={() => setOpen((o) => !o)}
        style={{ alignSelf: 'flex-start' }}
        aria-expanded={open}
      >
        {t('knowledge.documents.title')}
      </Button>
      <Collapse expanded={open}>{open ? <SourceDocuments source={source} /> : null}</Collapse>
    </ItemCard>
  );
}
