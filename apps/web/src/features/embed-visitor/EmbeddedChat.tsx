import { Button, Loader, Stack, Text } from '@mantine/core';
import { type CSSProperties, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n/index.ts';
import { ErrorPage } from '../../ui/ErrorPage.tsx';
import { useLocalePath } from '../../ui/hooks/useLocalePath.ts';
import { lastEmbeddedChat, rememberEmbeddedChat } from '../auth/index.ts';
import { ChatView, type EmbedChatOptions, useChatsList } from '../chats/index.ts';
import classes from './EmbeddedChat.module.css';
import { EmbeddedBar } from './internal/EmbeddedBar.tsx';
import { useEmbedFrame, useHostClose } from './internal/useEmbedFrame.ts';

const embedHome = (id: string) => `/embedded/${encodeURIComponent(id)}/chats`;
const embedChat = (id: string, chatId: string) => `${embedHome(id)}/${encodeURIComponent(chatId)}`;

/** Once per page load: the launcher opens the frame on a new chat, the visitor expects their last one. */
let resumed = false;

function History({ virtualAccountId, onOpen }: { virtualAccountId: string; onOpen: () => void }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const list = useChatsList('');
  const chats = list.data?.pages.flatMap((page) => page.items) ?? [];
  if (list.isPending) {
    return (
      <div className={classes.center}>
        <Loader size="sm" aria-label={t('app.loading')} />
      </div>
    );
  }
  if (chats.length === 0) {
    return (
      <div className={classes.center}>
        <Text c="dimmed">{t('embeddedChat.history_empty')}</Text>
      </div>
    );
  }
  return (
    <nav className={classes.history} aria-label={t('embeddedChat.history')}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" px={12} py={6}>
        {t('embeddedChat.history')}
      </Text>
      {chats.map((chat) => (
        <Link
          key={chat.chatId}
          to={lp(embedChat(virtualAccountId, chat.chatId))}
          className={classes.row}
          onClick={onOpen}
          data-testid="embedded-history-item"
        >
          <Text size="sm" fw={500} truncate>
            {chat.title || t('chats.untitled')}
          </Text>
        </Link>
      ))}
      {list.hasNextPage ? (
        <Button
          variant="subtle"
          size="xs"
          fullWidth
          loading={list.isFetchingNextPage}
          onClick={() => list.fetchNextPage()}
        >
          {t('embeddedChat.more')}
        </Button>
      ) : null}
    </nav>
  );
}

/** An embed's chat screen inside the host site's iframe: a new chat, or one of the visitor's. */
export function EmbeddedChat({
  virtualAccountId,
  chatId,
}: {
  virtualAccountId: string;
  chatId: string | null;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const frame = useEmbedFrame(virtualAccountId);
  const [showHistory, setShowHistory] = useState(false);
  const config = frame.status === 'ready' ? frame.config : null;
  const navigate = useNavigate();
  const ready = config !== null;
  const closePanel = useHostClose(ready);

  useEffect(() => {
    if (!ready) return;
    if (chatId) {
      resumed = true;
      rememberEmbeddedChat(chatId);
      return;
    }
    if (resumed) return;
    resumed = true;
    const last = lastEmbeddedChat();
    if (last) navigate(lp(embedChat(virtualAccountId, last)), { replace: true });
  }, [ready, chatId, virtualAccountId, navigate, lp]);

  const embed = useMemo<EmbedChatOptions | null>(
    () =>
      config
        ? {
            santito: config.agent,
            displayName: config.displayName,
            welcome: config.welcome,
            allowAttachments: config.allowAttachments,
            chatPath: (id) => embedChat(virtualAccountId, id),
            home: embedHome(virtualAccountId),
          }
        : null,
    [config, virtualAccountId],
  );

  if (frame.status === 'not-found') return <ErrorPage statusCode={404} renderBack={() => null} />;
  if (!embed || !config || frame.status !== 'ready') {
    return (
      <div className={classes.center}>
        {frame.status === 'waiting' ? (
          <Loader aria-label={t('app.loading')} />
        ) : (
          <Stack align="center" gap="xs">
            <Text c="dimmed" ta="center" role={frame.status === 'refused' ? 'alert' : undefined}>
              {t(
                frame.status === 'refused'
                  ? frame.code === 'INVALID_VISITOR_SIGNATURE'
                    ? 'embeddedChat.signature_refused'
                    : 'embeddedChat.refused'
                  : 'embeddedChat.unframed',
              )}
            </Text>
          </Stack>
        )}
      </div>
    );
  }

  return (
    <div className={classes.page} style={{ '--embed-color': config.color } as CSSProperties}>
      <EmbeddedBar
        name={config.displayName}
        showHistory={showHistory}
        onHistory={() => setShowHistory((v) => !v)}
        newChatTo={lp(embedHome(virtualAccountId))}
        onNewChat={() => setShowHistory(false)}
        onClose={closePanel}
      />
      <div className={classes.content}>
        {showHistory ? (
          <History virtualAccountId={virtualAccountId} onOpen={() => setShowHistory(false)} />
        ) : (
          <ChatView key={`${frame.visitorKey}:${chatId ?? 'new'}`} chatId={chatId} embed={embed} />
        )}
      </div>
    </div>
  );
}
