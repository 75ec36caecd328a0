import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The heading of an auth page: its title (the page's h1) and a line of what to do. */
export function AuthHeading({ title, subtitle }: { title: string; subtitle: ReactNode }) {
  return (
    <Stack gap={6}>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed">{subtitle}</Text>
    </Stack>
  );
}

/** What an auth flow ended in (a mail sent, a password set): announced as a status, then what to do next. */
export function AuthOutcome(props: {
  icon: ReactNode;
  color: string;
  title: string;
  message: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Stack gap="md" align="center" ta="center" role="status" data-testid={props.testId}>
      <ThemeIcon size={56} radius="xl" variant="light" color={props.color}>
        {props.icon}
      </ThemeIcon>
      <Title order={1} size="h3">
        {props.title}
      </Title>
      <Text c="dimmed">{props.message}</Text>
      {props.children}
    </Stack>
  );
}
