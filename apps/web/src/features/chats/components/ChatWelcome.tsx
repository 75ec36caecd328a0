import type { Santito } from '@assistente/contracts';
import { Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import classes from './ChatView.module.css';

/** The chip beside a chat's title: who answers. */
export function SantitoHeader({ santito }: { santito: Pick<Santito, 'name' | 'avatar'> }) {
  return (
    <Group gap={6} wrap="nowrap" className={classes.santito}>
      <span aria-hidden className={classes.santitoAvatar}>
        {santito.avatar ?? <IconSparkles size={14} />}
      </span>
      <Text size="sm" fw={600} truncate>
        {santito.name}
      </Text>
    </Group>
  );
}

export interface ChatWelcomeProps {
  /** Who answers; with one, its avatar, name and starters lead the page. */
  santito: Pick<Santito, 'name' | 'avatar' | 'starters'> | null;
  /** The page's title when there is no santito. */
  title: string;
  /** The welcome text under the title (the santito's description, an embed's welcome…). */
  text: string;
  /** Sends a starter; without it the starters are shown but cannot be picked. */
  onStarter?: (starter: string) => void;
  startersDisabled?: boolean;
}

/** A new chat before its first message: who answers, a welcome and the conversation starters. */
export function ChatWelcome({ santito, title, text, onStarter, startersDisabled = false }: ChatWelcomeProps) {
  return (
    <Stack align="center" justify="center" className={classes.center} gap="md" px="md">
      {santito ? (
        <span className={classes.welcomeAvatar} aria-hidden>
          {santito.avatar ?? <IconSparkles size={28} />}
        </span>
      ) : null}
      <Title order={2} size="h3" ta="center" data-testid="chat-welcome-title">
        {santito ? santito.name : title}
      </Title>
      {text ? (
        <Text c="dimmed" ta="center" maw={520} className={classes.welcomeText}>
          {text}
        </Text>
      ) : null}
      {santito && santito.starters.length > 0 ? (
        <div className={classes.starters}>
          {santito.starters.map((starter) => (
            <UnstyledButton
              key={starter}
              className={classes.starter}
              disabled={startersDisabled || !onStarter}
              onClick={() => onStarter?.(starter)}
            >
              {starter}
            </UnstyledButton>
          ))}
        </div>
      ) : null}
    </Stack>
  );
}
