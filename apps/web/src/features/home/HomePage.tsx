import type { Chat, Santito } from '@assistente/contracts';
import { Anchor, Card, Group, Loader, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronRight, IconMessage, IconMessages, IconPin } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { chatPath, newChatPath } from '../../lib/chatPaths.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { EmptyPanel } from '../../ui/EmptyPanel.tsx';
import { formatRelative } from '../../ui/format.ts';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import { isPremium, useAccountSession } from '../auth/index.ts';
import { Composer, useChatsList } from '../chats/index.ts';
import { SantitoAvatar, useSantitos } from '../santitos/index.ts';
import classes from './HomePage.module.css';

const RECENT = 6;
const SANTITOS = 6;

/** The first name to greet: API display name, else identity name, else the email's local part. */
export function greetingName(input: {
  displayName?: string | null;
  identityName?: string | null;
  email?: string | null;
}): string {
  const name = input.displayName?.trim() || input.identityName?.trim() || input.email?.split('@')[0] || '';
  return name.split(/\s+/)[0] ?? '';
}

function RecentChats() {
  // The translator's language, not `<html lang>`: that one changes only after this re-render.
  const { t, i18n } = useTranslation();
  const lp = useLocalePath();
  const list = useChatsList('');
  const chats: Chat[] = list.data?.pages[0]?.items.slice(0, RECENT) ?? [];
  if (list.isPending) return <Loader size="sm" aria-label={t('app.loading')} />;
  if (chats.length === 0) {
    return (
      <EmptyPanel
        icon={<IconMessages size={28} stroke={1.6} />}
        title={t('pages.chats.empty_title')}
        description={t('home.no_chats')}
      />
    );
  }
  return (
    <Card withBorder radius="lg" padding={0}>
      <Stack gap={0} component="ul" className={classes.list} data-testid="recent-chats">
        {chats.map((chat) => (
          <li key={chat.chatId}>
            <Link to={lp(chatPath(chat.chatId))} className={classes.recent}>
              {chat.pinned ? (
                <IconPin size={16} stroke={1.7} aria-label={t('chats.list.pinned')} />
              ) : (
                <IconMessage size={16} stroke={1.7} aria-hidden />
              )}
              <Text className={classes.recentTitle} size="sm" fw={500}>
                {chat.title || t('chats.untitled')}
              </Text>
              <Text size="xs" c="dimmed" className={classes.recentTime}>
                {formatRelative(chat.updatedAt, i18n.language)}
              </Text>
            </Link>
          </li>
        ))}
      </Stack>
    </Card>
  );
}

function DomainSantitos() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const list = useSantitos('');
  const santitos: Santito[] = list.data?.pages[0]?.items.slice(0, SANTITOS) ?? [];
  if (list.isPending) return <Loader size="sm" aria-label={t('app.loading')} />;
  if (santitos.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('home.no_santitos')}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="home-santitos">
      {santitos.map((santito) => (
        <UnstyledButton
          key={santito._id}
          component={Link}
          to={lp(newChatPath(santito._id))}
          className={classes.santito}
          aria-label={t('santitos.start_chat_with', { name: santito.name })}
        >
          <SantitoAvatar santito={santito} size={38} />
          <Stack gap={0} className={classes.santitoText}>
            <Text fw={600} size="sm" truncate>
              {santito.name}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={2}>
              {santito.description || t('santitos.no_description')}
            </Text>
          </Stack>
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}

/** `/`: greeting, a new-chat box, recent chats and the domain's santitos (premium). */
export default function HomePage() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const { apiUser, identityUser, domain } = useAccountSession();
  const name = greetingName({
    displayName: apiUser?.displayName,
    identityName: identityUser?.displayName,
    email: apiUser?.email ?? identityUser?.email,
  });
  const premium = isPremium(domain);

  return (
    <Stack gap="xl" className={classes.page}>
      <Stack gap={4}>
        <Title order={1} size="h1" data-testid="home-greeting">
          {t('pages.home.greeting', { name })}
        </Title>
        <Text c="dimmed" size="lg">
          {t('pages.home.subtitle')}
        </Text>
      </Stack>

      <div data-testid="home-new-chat">
        <Composer
          offline={false}
          busy={false}
          onSend={(text) => {
            navigate(lp(newChatPath()), { state: { message: text } });
            return true;
          }}
          onStop={() => {}}
          onAttach={(files, draft) => navigate(lp(newChatPath()), { state: { files, draft } })}
          placeholder={t('home.new_chat_placeholder')}
          promptLibrary
        />
      </div>

      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('pages.home.recent_chats')}
          </Title>
          <Anchor component={Link} to={lp(newChatPath())} size="sm">
            <Group gap={2}>
              {t('pages.home.open_chats')}
              <IconChevronRight size={14} />
            </Group>
          </Anchor>
        </Group>
        <RecentChats />
      </Stack>

      {premium ? (
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h4">
              {t('nav.santitos')}
            </Title>
            <Anchor component={Link} to={lp('/santitos')} size="sm">
              <Group gap={2}>
                {t('home.all_santitos')}
                <IconChevronRight size={14} />
              </Group>
            </Anchor>
          </Group>
          <DomainSantitos />
        </Stack>
      ) : null}
    </Stack>
  );
}
