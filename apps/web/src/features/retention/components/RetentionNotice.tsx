import { Group, Text } from '@mantine/core';
import { IconHourglassLow } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { useMyRetention } from '../hooks/useRetention.ts';

/**
 * The chats list's quiet line saying how long the caller's chats are kept, when their domain (or
 * department) has a rule; nothing otherwise, nor while it loads or if it cannot be read.
 */
export function RetentionNotice() {
  const { t } = useTranslation();
  const mine = useMyRetention();
  const days = mine.data?.chatsDays ?? null;
  if (days === null) return null;
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" c="dimmed" data-testid="retention-notice">
      <IconHourglassLow size={14} stroke={1.6} style={{ flex: 'none', marginTop: 2 }} aria-hidden />
      <Text size="xs" c="dimmed" lh={1.4}>
        {t(mine.data?.exemptPinned ? 'retention.notice.pinned_kept' : 'retention.notice.text', {
          count: days,
        })}
      </Text>
    </Group>
  );
}
