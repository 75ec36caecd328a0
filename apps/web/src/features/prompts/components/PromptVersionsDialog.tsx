import type { Prompt, PromptVersion } from '@assistente/contracts';
import { Badge, Button, Code, Group, Modal, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { apiErrorText } from '../../../ui/apiError.ts';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.tsx';
import { formatDateTime } from '../../../ui/format.ts';
import { useConfirm } from '../../../ui/hooks/useConfirm.ts';
import { ListSkeleton, LoadError } from '../../../ui/LoadState.tsx';
import { usePopup } from '../../../ui/popup/usePopup.ts';
import { usePromptVersions, useRestorePromptVersion } from '../hooks/usePrompts.ts';
import { ScopeBadge } from './ScopeBadge.tsx';

/**
 * A prompt's versions, newest first, each with its content; one who may edit the prompt restores an
 * older one (which becomes the newest: nothing is lost).
 */
export function PromptVersionsDialog({ prompt, onClose }: { prompt: Prompt | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('popup.close') }}
      opened={prompt !== null}
      onClose={onClose}
      title={prompt ? t('prompts.history.title', { title: prompt.title }) : ''}
      centered
      radius="lg"
      size="lg"
    >
      {prompt ? <Versions prompt={prompt} /> : null}
    </Modal>
  );
}

function Versions({ prompt }: { prompt: Prompt }) {
  const { t, i18n } = useTranslation();
  const popup = usePopup();
  const versions = usePromptVersions(prompt.id);
  const restore = useRestorePromptVersion();
  const confirm = useConfirm<PromptVersion>();
  const newest = versions.data?.[0]?.version ?? prompt.version;
  const pending = confirm.target;

  if (versions.isPending) return <ListSkeleton rows={3} height={96} label={t('app.loading')} />;
  if (versions.isError) return <LoadError title={t('prompts.history.load_failed')} query={versions} />;

  return (
    <>
      <Stack gap="sm" data-testid="prompt-versions">
        {versions.data.map((version) => {
          const current = version.version === newest;
          return (
            <Paper key={version.version} withBorder radius="md" p="sm" data-testid="prompt-version-item">
              <Group justify="space-between" gap="xs" mb={6} wrap="wrap">
                <Group gap={8} wrap="wrap">
                  <Text fw={600} size="sm">
                    {t('prompts.history.version', { version: version.version })}
                  </Text>
                  {current ? (
                    <Badge color="primary" variant="light" radius="sm" size="sm">
                      {t('prompts.history.current')}
                    </Badge>
                  ) : null}
                  <ScopeBadge scope={version.scope} size="xs" />
                </Group>
                {!current && prompt.editable ? (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconRestore size={14} />}
                    aria-label={t('prompts.history.restore_label', { version: version.version })}
                    onClick={() => confirm.ask(version)}
                  >
                    {t('prompts.history.restore')}
                  </Button>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed" mb={6}>
                {t('prompts.history.by', {
                  author: version.authorName,
                  date: formatDateTime(version.createdAt, i18n.language),
                })}
              </Text>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {version.title} <Code>/{version.command}</Code>
              </Text>
              <ScrollArea.Autosize mah={180} mt={6} type="auto">
                <Code
                  block
                  style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  data-testid="prompt-version-content"
                >
                  {version.content}
                </Code>
              </ScrollArea.Autosize>
            </Paper>
          );
        })}
      </Stack>
      <ConfirmDialog
        {...confirm.dialog(
          async (version) => {
            const restored = await restore.mutateAsync({ id: prompt.id, version: version.version });
            void popup.show({
              status: 'success',
              title: t('prompts.history.restored', { version: version.version, next: restored.version }),
            });
          },
          (error) => apiErrorText(t, error),
        )}
        danger={false}
        title={pending ? t('prompts.history.confirm_title', { version: pending.version }) : ''}
        message={
          pending ? t('prompts.history.confirm_message', { version: pending.version, next: newest + 1 }) : ''
        }
        confirmLabel={t('prompts.history.restore')}
        cancelLabel={t('common.cancel')}
        loading={restore.isPending}
      />
    </>
  );
}
