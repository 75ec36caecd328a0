import type { KnowledgeSource } from '@assistente/contracts';
import { Button, Stack } from '@mantine/core';
import { IconBook2, IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { EmptyPanel } from '../../../ui/EmptyPanel.tsx';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { SettingsSection } from '../../../ui/SettingsSection.tsx';
import { useDeleteSource, useKnowledgeSources } from '../hooks/useKnowledge.ts';
import { useKnowledgeEvents } from '../hooks/useKnowledgeEvents.ts';
import { ConfluenceDialog } from './ConfluenceDialog.tsx';
import { FilesSourceDialog } from './FilesSourceDialog.tsx';
import { SourceCard } from './SourceCard.tsx';
/** The "Knowledge" tab of /integration: Confluence sites and uploaded documents for santitos. */
export function KnowledgePanel() {
  const { t } = useTranslation();
  // Syncs and indexing show as they happen, pushed by the server.
  useKnowledgeEvents();
  const sources = useKnowledgeSources();
  const remove = useDeleteSource();
  const confirm = useConfirm<KnowledgeSource>();
  const [dialog, setDialog] = useState<'confluence' | 'files' | null>(null);
  return (
    <Stack gap="lg">
      <SettingsSection
        description={t('knowledge.intro')}
        actions={
          <>
            <Button leftSection={<IconPlus size={16} />} variant="default" onClick={() => setDialog('files')}>
              {t('knowledge.files.add')}
            </Button>
            <Button leftSection={<IconPlugConnected size={16} />} onClick={() => setDialog('confluence')}>
              {t('knowledge.confluence.add')}
            </Button>
          </>
        }
        query={sources}
        empty={
          <EmptyPanel
            icon={<IconBook2 size={28} stroke={1.6} />}
            title={t('knowledge.empty_title')}
            description={t('knowledge.empty_description')}
          />
        }
      >
        {(items) => (
          <Stack gap="md">
            {items.map((s) => (
              <SourceCard key={s.sourceId} source={s} onDelete={() => confirm.ask(s)} />
            ))}
          </Stack>
        )}
      </SettingsSection>
      {dialog === 'confluence' ? <ConfluenceDialog opened onClose={() => setDialog(null)} /> : null}
      {dialog === 'files' ? <FilesSourceDialog opened onClose={() => setDialog(null)} /> : null}
      <ConfirmDialog
        {...confirm.dialog(
          (s) => remove.mutateAsync(s.sourceId),
          (err) => errorMessage(err, t('knowledge.delete_failed')),
        )}
        title={t('knowledge.delete_title')}
        message={t('knowledge.delete_message', { name: confirm.target?.displayName ?? '' })}
        confirmLabel={t('knowledge.delete')}
        cancelLabel={t('knowledge.cancel')}
        loading={remove.isPending}
      />
    </Stack>
  );
}
