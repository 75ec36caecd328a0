import { type ChatImportItem, ChatImportLimits, type ChatImportReport } from '@assistente/contracts';
import { Alert, Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { chatPath } from '../../../lib/chatPaths.ts';
import { type TFunction, useTranslation } from '../../../lib/i18n/index.ts';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { sizeLimit } from './importErrors.ts';

const STATUS_COLOR = { imported: 'teal', skipped: 'gray', failed: 'red' } as const;

/** Why one conversation was skipped or failed, in the reader's words. */
function reasonText(item: ChatImportItem, t: TFunction, locale: string): string | null {
  switch (item.reasonCode) {
    case undefined:
      return item.reason ?? null;
    case 'already_imported':
      return t('chatImport.reasons.already_imported');
    case 'too_many_messages':
      return t('chatImport.reasons.too_many_messages', {
        max: ChatImportLimits.maxMessagesPerConversation.toLocaleString(locale),
      });
    case 'too_large':
      return t('chatImport.reasons.too_large', { size: sizeLimit(ChatImportLimits.maxConversationBytes) });
    case 'empty':
    case 'invalid':
      return t(`chatImport.reasons.${item.reasonCode}`);
  }
}

/**
 * What became of each conversation of the file. Green only when something was imported: a file
 * that brought nothing new says why (all imported before, or none readable), never "success".
 */
export function ImportReport({ report, fileName }: { report: ChatImportReport; fileName: string }) {
  const { t, i18n } = useTranslation();
  const lp = useLocalePath();
  const total = report.items.length;
  const failed = report.failed.length;
  const counts = [
    // Zero is no count to show: the alert's sentence says what happened instead.
    ...(report.imported > 0 ? [t('chatImport.report.imported', { count: report.imported })] : []),
    ...(report.skipped > 0 ? [t('chatImport.report.skipped', { count: report.skipped })] : []),
    ...(failed > 0 ? [t('chatImport.report.failed', { count: failed })] : []),
  ].join(' · ');
  const nothing = report.skipped === total ? 'all_skipped' : failed === total ? 'all_failed' : 'mixed';

  return (
    <Stack gap="md" data-testid="chat-import-report">
      {report.imported > 0 ? (
        <Alert
          color="teal"
          icon={<IconCircleCheck size={20} />}
          title={t('chatImport.report.done_title')}
          data-testid="chat-import-summary"
          data-outcome="imported"
        >
          {counts}
        </Alert>
      ) : (
        <Alert
          color={nothing === 'all_skipped' ? 'gray' : 'orange'}
          icon={nothing === 'all_skipped' ? <IconInfoCircle size={20} /> : <IconAlertTriangle size={20} />}
          title={t('chatImport.report.nothing_title')}
          data-testid="chat-import-summary"
          data-outcome="nothing"
        >
          <Stack gap={4}>
            <Text size="sm">{t(`chatImport.report.nothing_${nothing}`, { count: total })}</Text>
            <Text size="sm" c="dimmed">
              {counts}
            </Text>
          </Stack>
        </Alert>
      )}
      <Text size="sm" c="dimmed">
        {t('chatImport.report.file', {
          file: fileName,
          format: report.format === 'chatgpt' ? 'ChatGPT' : 'Claude',
        })}
      </Text>
      <List spacing="xs" listStyleType="none" data-testid="chat-import-items">
        {report.items.map((item, index) => {
          const reason = reasonText(item, t, i18n.language);
          return (
            <List.Item
              // Titles repeat (many "Untitled"): the position is the item's identity in a report.
              // biome-ignore lint/suspicious/noArrayIndexKey: a report never reorders
              key={index}
              data-testid="chat-import-item"
              data-status={item.status}
            >
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge color={STATUS_COLOR[item.status]} variant="light" style={{ flexShrink: 0 }}>
                  {t(`chatImport.status.${item.status}`)}
                </Badge>
                <Stack gap={0} style={{ minWidth: 0 }}>
                  {item.chatId ? (
                    <Anchor
                      component={Link}
                      to={lp(chatPath(item.chatId))}
                      fw={500}
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {item.title}
                    </Anchor>
                  ) : (
                    <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                      {item.title}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed">
                    {[
                      item.status === 'failed'
                        ? null
                        : t('chatImport.report.messages', { count: item.messages }),
                      reason,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Stack>
              </Group>
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
