import type { Chat } from '@assistente/contracts';
import { ActionIcon, Button, CloseButton, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconLayoutSidebarLeftCollapse,
  IconMessageCircle,
  IconMessagePlus,
  IconSearch,
} from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { chatPath, newChatPath } from '../../../lib/chatPaths.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { setUi } from '../../../ui/uiStore.ts';
import { RetentionNotice } from '../../retention/index.ts';
import { useChatsList, useDeleteChat, usePinChat, useRenameChat } from '../hooks/useChatsList.ts';
import { useFixedVirtual } from '../hooks/useFixedVirtual.ts';
import { ChatListItem } from './ChatListItem.tsx';
import classes from './ChatsSidebar.module.css';

const ROW_HEIGHT = 40;

/**
 * The chats list panel of the chats layout (chatSidebarModel): new chat, search, and a
 * virtualised list loaded page by page, so ten thousand chats scroll like ten.
 */
export function ChatsSidebar({
  onCollapse,
  onNavigate,
}: {
  onCollapse?: () => void;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const { chatId: activeId } = useParams();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const list = useChatsList(q);
  const rename = useRenameChat();
  const pin = usePinChat();
  const remove = useDeleteChat();

  const chats = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;

  useEffect(() => {
    setUi({ loadingChatsList: list.isFetching });
    if (list.isSuccess) setUi({ loadedChatsListOnce: true });
  }, [list.isFetching, list.isSuccess]);

  const scrollRef = useRef<HTMLElement>(null);
  const rowCount = chats.length + (list.hasNextPage ? 1 : 0);
  const { start, end, totalHeight } = useFixedVirtual(scrollRef, rowCount, ROW_HEIGHT, 12);
  const lastIndex = end - 1;

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= chats.length - 10) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, chats.length]);

  const onRename = useCallback(
    (chat: Chat, title: string) => rename.mutate({ chatId: chat.chatId, title }),
    [rename.mutate],
  );
  const onPin = useCallback(
    (chat: Chat) => pin.mutate({ chatId: chat.chatId, pinned: !chat.pinned }),
    [pin.mutate],
  );
  const onDelete = useCallback(
    (chat: Chat) => {
      remove.mutate(chat);
      if (chat.chatId === activeId) navigate(lp(newChatPath()));
    },
    [remove.mutate, activeId, navigate, lp],
  );

  return (
    <Stack gap="sm" p="sm" h="100%" className={classes.panel}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Button
          leftSection={<IconMessagePlus size={18} />}
          variant="light"
          onClick={() => {
            navigate(lp(newChatPath()));
            onNavigate?.();
          }}
          style={{ flex: 1 }}
          data-testid="new-chat"
        >
          {t('chats.new_chat')}
        </Button>
        {onCollapse ? (
          <Tooltip label={t('pages.chats.hide_list')} withArrow>
            <ActionIcon
              variant="subtle"
              color="neutral.6"
              size="lg"
              onClick={onCollapse}
              aria-label={t('pages.chats.hide_list')}
            >
              <IconLayoutSidebarLeftCollapse size={18} stroke={1.7} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
      <TextInput
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        placeholder={t('chats.list.search_placeholder')}
        aria-label={t('chats.list.search_label')}
        leftSection={<IconSearch size={16} />}
        rightSection={
          search ? (
            <CloseButton size="sm" aria-label={t('chats.list.clear_search')} onClick={() => setSearch('')} />
          ) : list.isFetching && q ? (
            <Loader size={14} />
          ) : null
        }
        onKeyDown={(e) => {
          if (e.key === 'Escape') setSearch('');
        }}
        type="search"
        maxLength={200}
      />
      <nav
        ref={scrollRef}
        className={classes.scroller}
        aria-label={t('nav.chats')}
        aria-busy={list.isFetching || undefined}
        data-testid="chats-list"
        data-total={total}
      >
        {list.isPending ? (
          <Group justify="center" py="lg">
            <Loader size="sm" aria-label={t('app.loading')} />
          </Group>
        ) : list.isError ? (
          <Stack align="center" gap="xs" py="lg">
            <Text size="sm" c="dimmed" ta="center">
              {t('chats.list.load_error')}
            </Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('popup.try_again')}
            </Button>
          </Stack>
        ) : chats.length === 0 ? (
          <Stack align="center" gap={6} py="xl" c="neutral.6">
            <IconMessageCircle size={28} stroke={1.5} />
            <Text size="sm" ta="center" c="dimmed">
              {q ? t('chats.list.no_results', { q }) : t('pages.chats.sidebar_empty')}
            </Text>
          </Stack>
        ) : (
          <div style={{ height: totalHeight, position: 'relative' }}>
            {Array.from({ length: Math.max(0, end - start) }, (_, offset) => {
              const index = start + offset;
              const chat = chats[index];
              return (
                <div
                  key={chat?.chatId ?? 'more'}
                  className={classes.virtualRow}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${index * ROW_HEIGHT}px)` }}
                >
                  {chat ? (
                    <ChatListItem
                      chat={chat}
                      href={lp(chatPath(chat.chatId))}
                      active={chat.chatId === activeId}
                      onRename={onRename}
                      onPin={onPin}
                      onDelete={onDelete}
                      {...(onNavigate ? { onOpen: onNavigate } : {})}
                    />
                  ) : (
                    <Group justify="center" h="100%">
                      <Loader size="xs" aria-label={t('app.loading')} />
                    </Group>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </nav>
      <RetentionNotice />
    </Stack>
  );
}
