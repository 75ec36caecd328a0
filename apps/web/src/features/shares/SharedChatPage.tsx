import type { SharedChat } from '@assistente/contracts';
import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCopy, IconLinkOff, IconLock, IconLogin } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { chatPath } from '../../lib/chatPaths.ts';
import { HttpError } from '../../lib/http/errors.ts';
import { useTranslation } from '../../lib/i18n/index.ts';
import { apiErrorText } from '../../ui/apiError.ts';
import { formatDateTime } from '../../ui/format.ts';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import { isAuthenticated, useAccountSession } from '../auth/index.ts';
import { chatKeys, ReadOnlyMessages } from '../chats/index.ts';
import { shareKeys, sharesApi } from './hooks/useShares.ts';
import classes from './SharedChatPage.module.css';

const isNotFound = (error: unknown) => error instanceof HttpError && error.status === 404;

/**
 * `/s/{shareId}` (docs/ARCHITECTURE.md#share-links): a shared chat, read-only, for whoever may read
 * it — signed in or, for a public link, not. A signed-in reader continues it as a chat of their
 * own; a signed-out one is asked to sign in (a link to the organisation is not "gone" for them).
 */
export default function SharedChatPage() {
  const { t } = useTranslation();
  const { shareId = '' } = useParams();
  const session = useAccountSession();
  const signedIn = isAuthenticated(session);
  const reader = signedIn ? (session.apiUser?.email ?? '') : '';
  const shared = useQuery({
    // Who reads it is part of the key: signing in may open a link that was closed to nobody.
    queryKey: [...shareKeys.shared(shareId), reader],
    queryFn: () => sharesApi().read(shareId),
    retry: false,
  });

  if (shared.isPending) {
    return (
      <Center className={classes.center}>
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (shared.isError) {
    return isNotFound(shared.error) ? (
      <NotAvailable signedIn={signedIn} shareId={shareId} />
    ) : (
      <LoadFailed onRetry={() => void shared.refetch()} />
    );
  }
  return <SharedChatView shared={shared.data} shareId={shareId} signedIn={signedIn} />;
}

/** Where sign-in sends the reader back to: this link. */
function useSignInPath(shareId: string): string {
  const lp = useLocalePath();
  const back = lp(`/s/${encodeURIComponent(shareId)}`);
  return `${lp('/auth/login')}?${new URLSearchParams({ redirect: back })}`;
}

function SharedChatView({
  shared,
  shareId,
  signedIn,
}: {
  shared: SharedChat;
  shareId: string;
  signedIn: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const signIn = useSignInPath(shareId);
  const client = useQueryClient();
  const copy = useMutation({
    mutationFn: () => sharesApi().copy(shareId),
    onSuccess: async ({ chatId }) => {
      // The copy is the reader's newest chat: the sidebar must list it when the chat opens.
      await client.invalidateQueries({ queryKey: chatKeys.lists() });
      navigate(lp(chatPath(chatId)));
    },
  });

  const action = signedIn ? (
    <Button
      leftSection={<IconCopy size={18} />}
      loading={copy.isPending}
      onClick={() => copy.mutate()}
      data-testid="share-continue"
    >
      {t('shares.page.continue')}
    </Button>
  ) : (
    <Button component={Link} to={signIn} leftSection={<IconLogin size={18} />} data-testid="share-sign-in">
      {t('shares.page.sign_in_to_continue')}
    </Button>
  );

  return (
    <article className={classes.page} data-testid="shared-chat">
      <header className={classes.header}>
        <Title order={1} size="h3" className={classes.title} data-testid="shared-title">
          {shared.title || t('shares.untitled')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('shares.page.shared_by', {
            name: shared.sharedBy,
            date: formatDateTime(shared.createdAt, i18n.language),
          })}
          {shared.santitoName ? ` · ${t('shares.page.santito', { name: shared.santitoName })}` : ''}
        </Text>
        <Text size="xs" c="dimmed">
          {t('shares.page.snapshot')}
        </Text>
      </header>
      <ReadOnlyMessages messages={shared.messages} />
      <footer className={classes.footer}>
        {copy.isError ? (
          <Alert color="error" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" w="100%">
            {apiErrorText(t, copy.error)}
          </Alert>
        ) : null}
        <Group justify="center">{action}</Group>
        <Text size="xs" c="dimmed" ta="center">
          {signedIn ? t('shares.page.continue_hint') : t('shares.page.sign_in_hint')}
        </Text>
      </footer>
    </article>
  );
}

/** 404: gone for a signed-in reader; for a signed-out one, perhaps only closed to them. */
function NotAvailable({ signedIn, shareId }: { signedIn: boolean; shareId: string }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const signIn = useSignInPath(shareId);
  return (
    <Center className={classes.center}>
      <Stack align="center" gap="sm" maw={480} ta="center" data-testid="share-unavailable">
        {signedIn ? (
          <IconLinkOff size={40} stroke={1.5} aria-hidden />
        ) : (
          <IconLock size={40} stroke={1.5} aria-hidden />
        )}
        <Title order={1} size="h3">
          {signedIn ? t('shares.page.unavailable_title') : t('shares.page.sign_in_title')}
        </Title>
        <Text c="dimmed">
          {signedIn ? t('shares.page.unavailable_message') : t('shares.page.sign_in_message')}
        </Text>
        {signedIn ? (
          <Button component={Link} to={lp('/')} mt="xs">
            {t('shares.page.home')}
          </Button>
        ) : (
          <Button
            component={Link}
            to={signIn}
            leftSection={<IconLogin size={18} />}
            mt="xs"
            data-testid="share-sign-in"
          >
            {t('shares.page.sign_in')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Center className={classes.center}>
      <Stack align="center" gap="sm" data-testid="share-load-failed">
        <Text>{t('shares.page.load_failed')}</Text>
        <Button variant="default" onClick={onRetry}>
          {t('shares.page.retry')}
        </Button>
      </Stack>
    </Center>
  );
}
