import { Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One configured thing in a settings list (a provider, a sign-in provider, a knowledge source): its
 * name and badges, its actions on the right (wrapping below on phones), a dimmed line of details,
 * then whatever else it shows.
 */
export function ItemCard({
  title,
  badges,
  actions,
  details,
  testId,
  children,
}: {
  title: ReactNode;
  badges?: ReactNode;
  actions?: ReactNode;
  details?: ReactNode;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
            <Text fw={600}>{title}</Text>
            {badges}
          </Group>
          {actions ? (
            <Group gap={4} wrap="nowrap">
              {actions}
            </Group>
          ) : null}
        </Group>
        {details ? (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {details}
          </Text>
        ) : null}
        {children}
      </Stack>
    </Card>
  );
}
