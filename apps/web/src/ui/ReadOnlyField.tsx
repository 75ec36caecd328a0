import { Stack, Text } from '@mantine/core';

/** A labelled value in a read-only card (a profile, a domain, the terms accepted); `—` when empty. */
export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </Stack>
  );
}
