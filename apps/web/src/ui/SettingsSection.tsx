import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { isValidElement, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/index.ts';
import { ListSkeleton, LoadError } from './LoadState.tsx';

/**
 * A settings or integration section listing one kind of thing (providers, embeds, sign-in
 * providers, knowledge sources): its title, what it is for and the buttons that add to it, then
 * the list — placeholder rows while it loads, why it failed with a retry, or what to do when empty.
 */
export function SettingsSection<T>({
  title,
  description,
  actions,
  testId,
  query,
  empty,
  children,
}: {
  title?: string;
  description: string;
  actions: ReactNode;
  testId?: string;
  query: UseQueryResult<T[]>;
  /** A sentence (shown as a notice) or a whole empty state. */
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid={testId}>
      <Group justify="space-between" align="flex-end" gap="sm">
        {/* Shrinks before the buttons wrap below it; on a phone they take their own line. */}
        <Stack gap={2} style={{ flex: '1 1 18rem', minWidth: 0 }}>
          {title ? (
            <Title order={2} size="h4">
              {title}
            </Title>
          ) : null}
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        <Group gap="xs">{actions}</Group>
      </Group>
      {query.isPending ? (
        <ListSkeleton rows={2} height={72} label={t('app.loading')} />
      ) : query.isError ? (
        <LoadError title={t('common.load_failed')} query={query} />
      ) : query.data.length === 0 ? (
        isValidElement(empty) ? (
          empty
        ) : (
          <Alert color="accent" variant="light">
            {empty}
          </Alert>
        )
      ) : (
        children(query.data)
      )}
    </Stack>
  );
}
