import { ChatImportLimits } from '@assistente/contracts';
import { Alert, Button, Card, Group, List, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconUpload } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useChatImport } from '../hooks/useChatImport.ts';
import { ImportDropZone } from './ImportDropZone.tsx';
import { ImportReport } from './ImportReport.tsx';
import { importErrorText, sizeLimit } from './importErrors.ts';

/**
 * `/settings` → Import: a ChatGPT or Claude export dropped or chosen, its upload's progress, the
 * server reading it, then what became of each conversation (docs/ARCHITECTURE.md#chat-import).
 */
export function ChatImportTab() {
  const { t, i18n } = useTranslation();
  const { state, start, reset } = useChatImport();

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="chat-import">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h4">
            {t('chatImport.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('chatImport.description')}
          </Text>
        </Stack>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('chatImport.where.title')}
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>{t('chatImport.where.chatgpt')}</List.Item>
            <List.Item>{t('chatImport.where.claude')}</List.Item>
          </List>
          <Text size="sm" c="dimmed">
            {t('chatImport.accepted', { size: sizeLimit(ChatImportLimits.maxUploadBytes) })}
          </Text>
        </Stack>

        {state.phase === 'failed' ? (
          <Alert
            color="red"
            icon={<IconAlertCircle size={20} />}
            title={t('chatImport.errors.title', { file: state.fileName })}
            data-testid="chat-import-error"
          >
            {importErrorText(state.error, t, i18n.language)} {t('chatImport.errors.nothing')}
          </Alert>
        ) : null}

        {state.phase === 'idle' || state.phase === 'failed' ? <ImportDropZone onFile={start} /> : null}

        {state.phase === 'uploading' ? (
          <Stack gap="xs" data-testid="chat-import-uploading">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('chatImport.uploading', { file: state.fileName })}
              </Text>
              <Text size="sm" c="dimmed">
                {Math.round(state.progress * 100)}%
              </Text>
            </Group>
            <Progress
              value={state.progress * 100}
              animated
              aria-label={t('chatImport.uploading', { file: state.fileName })}
            />
            <Group>
              <Button variant="subtle" color="gray" size="xs" onClick={reset}>
                {t('chatImport.cancel')}
              </Button>
            </Group>
          </Stack>
        ) : null}

        {state.phase === 'importing' ? (
          <Group gap="sm" wrap="nowrap" data-testid="chat-import-importing">
            <Loader size="sm" />
            <Stack gap={0}>
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {t('chatImport.importing', { file: state.fileName })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('chatImport.importing_hint')}
              </Text>
            </Stack>
          </Group>
        ) : null}

        {state.phase === 'done' ? (
          <>
            <ImportReport report={state.report} fileName={state.fileName} />
            <Group>
              <Button
                variant="light"
                leftSection={<IconUpload size={16} />}
                onClick={reset}
                data-testid="chat-import-again"
              >
                {t('chatImport.again')}
              </Button>
            </Group>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
