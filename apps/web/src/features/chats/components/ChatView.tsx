import type { Chat, ChatParams, Santito } from '@assistente/contracts';
import { ActionIcon, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAdjustmentsHorizontal,
  IconDots,
  IconFileTypeTxt,
  IconJson,
  IconLayoutSidebarLeftExpand,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  type DragEvent,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useNavigate } from 'react-router';
import { chatPath } from '../../../lib/chatPaths.ts';
import { HttpError } from '../../../lib/http/errors.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Menu, Tooltip, useLoadFloatingAfterPaint } from '../../../ui/DeferredFloating.tsx';
import { ErrorPage } from '../../../ui/ErrorPage.tsx';
import { useLocalePath } from '../../../ui/hooks/useLocalePath.ts';
import { LazyDrawer } from '../../../ui/LazyDrawer.tsx';
import { setUi, useUiFlag } from '../../../ui/uiStore.ts';
import { downloadFile, isPremium, useAccountSession } from '../../auth/index.ts';
import { useSantito } from '../../santitos/index.ts';
import { exportPath } from '../api.ts';
import { chatsApi } from '../hooks/chatsApi.ts';
import { useAgents, useConnectionState, useThread } from '../hooks/useAgents.ts';
import { useChatRecord } from '../hooks/useChat.ts';
import { chatListCache } from '../hooks/useChatsList.ts';
import { useUploads } from '../hooks/useUploads.ts';
import { streamingIds } from '../lib/chatStore.ts';
import { visibleThread } from '../lib/thread.ts';
import classes from './ChatView.module.css';
import { ChatWelcome, SantitoHeader } from './ChatWelcome.tsx';
import { Composer, type ComposerHandle, ComposerHint } from './Composer.tsx';
import { ConnectionBadge } from './ConnectionBadge.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import type { MessageActions } from './MessageItem.tsx';
import { MessageList } from './MessageList.tsx';

const ParamsPanel = lazy(() => import('./ParamsPanel.tsx'));

const MOBILE = '(max-width: 59.99em)';

export interface ChatViewProps {
  /** null: the new-chat state of `/chats`. */
  chatId: string | null;
  /** A santito to talk to (new chat from the gallery or the home page). */
  agentId?: string | null;
  /** A message to send at once (the home page's new-chat box). */
  initialMessage?: string | null;
  /** Files to attach at once, with the text typed beside them (the home page's box). */
  initialFiles?: File[] | null;
  initialDraft?: string;
  /** The initial message was sent, or the initial files taken. */
  onInitialMessageSent?: () => void;
  /** Shown inside another site's iframe (docs/ARCHITECTURE.md#embedded-chat): the embed's santito and texts, no settings. */
  embed?: EmbedChatOptions;
}

/** What an embedded chat differs in: who it talks to and where its pages are. */
export interface EmbedChatOptions {
  santito: Pick<Santito, 'name' | 'avatar' | 'starters'> | null;
  /** The embed's name (the title of a new chat) and welcome text. */
  displayName: string;
  welcome: string;
  allowAttachments: boolean;
  /** The page of one of the visitor's chats (unprefixed; the locale is added). */
  chatPath: (chatId: string) => string;
  /** The new-chat page (the 404's way back). */
  home: string;
}

type LoadState = 'idle' | 'loading' | 'error' | 'not-found';

/** A chat: header, messages streaming in, composer and the parameters panel. */
export function ChatView({
  chatId,
  agentId = null,
  initialMessage = null,
  initialFiles = null,
  initialDraft = '',
  onInitialMessageSent,
  embed,
}: ChatViewProps) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const client = useQueryClient();
  const agents = useAgents();
  const connection = useConnectionState();
  const mobile = useMediaQuery(MOBILE, false, { getInitialValueInEffect: false }) === true;
  const paramsOpen = useUiFlag('customParamsSidebar');
  const { apiUser, identityUser, domain } = useAccountSession();

  // A new chat gets its id from the server on the first message (or the first attachment).
  const [draftChatId, setDraftChatId] = useState<string | null>(null);
  const effectiveId = chatId ?? draftChatId;
  const thread = useThread(effectiveId);
  const record = useChatRecord(chatId);
  const chat: Chat | undefined = record.data;
  const santitoId = chat?.agentId ?? agentId;
  // A visitor may not read santitos: the embed's config says who answers.
  const ownSantito = useSantito(embed ? null : santitoId, !embed && isPremium(domain)).data;
  const santito = embed ? embed.santito : ownSantito;
  const pathOf = embed?.chatPath ?? chatPath;
  const welcomeText = embed ? embed.welcome : (ownSantito?.description ?? '');

  const [load, setLoad] = useState<LoadState>('idle');
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [requestError, setRequestError] = useState<{ code: string; message: string } | null>(null);
  const [awaiting, setAwaiting] = useState(false);
  const [followSignal, setFollowSignal] = useState(0);
  const [draftParams, setDraftParams] = useState<ChatParams>({});
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);

  const loadLatest = useCallback(
    async (id: string) => {
      const page = await chatsApi().listMessages(id);
      agents.store.dispatch({
        type: 'page',
        chatId: id,
        messages: page.items,
        cursor: page.nextCursor,
        older: false,
      });
    },
    [agents],
  );

  // Open the chat: keep its frames, load its newest messages, resume an answer in progress.
  useEffect(() => {
    if (!chatId) return;
    const release = agents.openChat(chatId);
    const known = agents.store.getState()[chatId];
    let live = true;
    if (known?.loaded) {
      agents.subscribe(chatId);
    } else {
      setLoad('loading');
      setUi({ loadingCurrentChat: true });
      loadLatest(chatId)
        .then(() => {
          if (!live) return;
          setLoad('idle');
          agents.subscribe(chatId);
        })
        .catch((error: unknown) => {
          if (!live) return;
          setLoad(error instanceof HttpError && error.status === 404 ? 'not-found' : 'error');
        })
        .finally(() => setUi({ loadingCurrentChat: false }));
    }
    const unstale = agents.onStale((id) => {
      if (id === chatId) void loadLatest(chatId).catch(() => undefined);
    });
    return () => {
      live = false;
      release();
      unstale();
    };
  }, [chatId, agents, loadLatest]);

  const view = useMemo(
    () => (thread ? visibleThread(thread) : { path: [], siblings: {}, leafId: null }),
    [thread],
  );
  const generating = streamingIds(thread).length > 0;
  const busy = generating || awaiting;
  const offline = connection !== 'ready';

  // The send is answered by a new message or an error.
  const messageCount = thread?.ids.length ?? 0;
  const lastError = thread?.lastError ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reacts to the answer arriving
  useEffect(() => {
    setAwaiting(false);
  }, [messageCount, lastError, requestError]);
  useEffect(() => {
    if (!awaiting) return;
    const timer = setTimeout(() => setAwaiting(false), 20_000);
    return () => clearTimeout(timer);
  }, [awaiting]);

  // A chat made for a new message's files is a draft: out of the lists until that message is
  // stored, deleted if the user leaves without sending it (else every abandoned attachment left
  // an empty "untitled" chat behind).
  const draftKept = useRef(false);
  // Files dropped together all ask for the chat before it exists: one creation serves them all
  // (two made two chats, and the cleanup of the first deleted it under its own upload).
  const creatingDraft = useRef<Promise<string> | null>(null);
  const ensureChat = useCallback((): Promise<string> => {
    if (effectiveId) return Promise.resolve(effectiveId);
    if (!creatingDraft.current) {
      const creating = chatsApi()
        .createChat({ ...(agentId ? { agentId } : {}) })
        .then((created) => {
          agents.store.dispatch({ type: 'track-new', chatId: created.chatId });
          draftKept.current = false;
          setDraftChatId(created.chatId);
          return created.chatId;
        });
      // A failed creation may be tried again by the next file.
      creating.catch(() => {
        if (creatingDraft.current === creating) creatingDraft.current = null;
      });
      creatingDraft.current = creating;
    }
    return creatingDraft.current;
  }, [effectiveId, agentId, agents]);
  useEffect(() => {
    if (!draftChatId) return;
    return () => {
      if (draftKept.current) return;
      chatsApi()
        .deleteChat(draftChatId)
        .catch(() => {
          // Offline or already gone: nothing more to do here (out of the lists, the server
          // purges it a day later).
        });
    };
  }, [draftChatId]);
  const uploads = useUploads(ensureChat);
  const { items: uploadItems, restore: restoreUploads } = uploads;
  const composer = useRef<ComposerHandle>(null);

  const send = useCallback(
    (content: string, attachments: string[]): boolean => {
      setRequestError(null);
      if (effectiveId) agents.store.dispatch({ type: 'dismiss-error', chatId: effectiveId });
      const request = agents.send({
        chatId: effectiveId,
        content,
        attachments,
        ...(effectiveId && view.leafId ? { parentId: view.leafId } : {}),
        ...(!chatId && agentId ? { agentId } : {}),
        ...(!chatId && Object.keys(draftParams).length > 0 ? { params: draftParams } : {}),
      });
      if (!request) {
        setRequestError({ code: 'OFFLINE', message: '' });
        return false;
      }
      setAwaiting(true);
      setFollowSignal((n) => n + 1);
      // The composer clears its text and these files now; a refusal (nothing stored) gives them back.
      const files = uploadItems.filter(
        (i) => i.attachment && attachments.includes(i.attachment.attachmentId),
      );
      request.stored.then(
        () => {
          // A chat made for its files opens once its first message is in, not before: leaving
          // this view would drop what a refused send gives back. Now it is a chat of the lists,
          // with the title its first message gave it.
          if (!chatId && effectiveId) {
            draftKept.current = true;
            chatsApi()
              .getChat(effectiveId)
              .then((stored) => chatListCache.add(client, stored))
              .catch(() => undefined);
            navigate(lp(pathOf(effectiveId)));
          }
        },
        () => {
          composer.current?.restore(content);
          restoreUploads(files);
        },
      );
      if (!chatId && !effectiveId) {
        request.chat.then(
          (created) => navigate(lp(pathOf(created.chatId))),
          (error: { code: string; message: string }) => setRequestError(error),
        );
      }
      return true;
    },
    [
      agents,
      effectiveId,
      chatId,
      agentId,
      draftParams,
      view.leafId,
      navigate,
      lp,
      pathOf,
      uploadItems,
      restoreUploads,
      client,
    ],
  );

  // The home page's new-chat box hands its text over: sent as soon as the socket is ready.
  const initialSent = useRef(false);
  useEffect(() => {
    if (!initialMessage || initialSent.current || connection !== 'ready') return;
    initialSent.current = true;
    send(initialMessage, []);
    onInitialMessageSent?.();
  }, [initialMessage, connection, send, onInitialMessageSent]);

  const { add: addUploads } = uploads;
  const initialTaken = useRef(false);
  useEffect(() => {
    if (!initialFiles || initialTaken.current) return;
    initialTaken.current = true;
    addUploads(initialFiles);
    onInitialMessageSent?.();
  }, [initialFiles, addUploads, onInitialMessageSent]);

  const actionsRef = useRef<MessageActions | null>(null);
  actionsRef.current = {
    regenerate: (messageId) => {
      if (!effectiveId) return;
      if (agents.regenerate(effectiveId, messageId)) {
        setAwaiting(true);
        setFollowSignal((n) => n + 1);
      }
    },
    edit: (messageId, content) => {
      if (!effectiveId) return;
      if (agents.edit(effectiveId, messageId, content)) {
        setAwaiting(true);
        setFollowSignal((n) => n + 1);
      }
    },
    selectSibling: (parentKey, messageId) => {
      if (effectiveId)
        agents.store.dispatch({ type: 'select', chatId: effectiveId, parentKey, childId: messageId });
    },
  };
  const actions = useMemo<MessageActions>(
    () => ({
      regenerate: (id) => actionsRef.current?.regenerate(id),
      edit: (id, content) => actionsRef.current?.edit(id, content),
      selectSibling: (key, id) => actionsRef.current?.selectSibling(key, id),
    }),
    [],
  );

  const olderCursor = thread?.olderCursor ?? null;
  const loadOlder = useCallback(() => {
    if (!effectiveId || !olderCursor || loadingOlder) return;
    setLoadingOlder(true);
    chatsApi()
      .listMessages(effectiveId, olderCursor)
      .then((page) =>
        agents.store.dispatch({
          type: 'page',
          chatId: effectiveId,
          messages: page.items,
          cursor: page.nextCursor,
          older: true,
        }),
      )
      .catch(() => undefined)
      .finally(() => setLoadingOlder(false));
  }, [agents, effectiveId, olderCursor, loadingOlder]);

  const stop = () => {
    if (effectiveId) agents.stop(effectiveId);
  };

  const exportAs = (format: 'md' | 'json') => {
    if (!chatId) return;
    void downloadFile(exportPath(chatId, format), `chat.${format}`).catch(() =>
      setRequestError({ code: 'INTERNAL', message: '' }),
    );
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0 && !offline && (!embed || embed.allowAttachments)) uploads.add(files);
  };

  const title = chat?.title || (chatId ? t('chats.untitled') : t('chats.new_chat'));
  const error = requestError ?? lastError;
  const firstName =
    (apiUser?.displayName || identityUser?.displayName || apiUser?.email?.split('@')[0] || '').split(
      /\s+/,
    )[0] ?? '';

  const params = chat?.params ?? {};
  const paramsPanel = paramsOpen ? (
    <Suspense
      fallback={
        <Group justify="center" p="lg">
          <Loader size="sm" />
        </Group>
      }
    >
      <ParamsPanel
        chatId={chatId}
        params={chatId ? params : draftParams}
        onDraftChange={setDraftParams}
        onClose={() => setUi({ customParamsSidebar: false })}
      />
    </Suspense>
  ) : null;

  // The spinner is not the page: tooltips and menus are fetched once the messages (or the welcome,
  // or a not-found) have been painted.
  const loading =
    Boolean(chatId) && load !== 'not-found' && load !== 'error' && (load === 'loading' || !thread?.loaded);
  useLoadFloatingAfterPaint(!loading);

  let body: ReactNode;
  if (load === 'error') {
    body = (
      <Stack align="center" justify="center" className={classes.center} gap="xs">
        <Text c="dimmed">{t('chats.load_error')}</Text>
      </Stack>
    );
  } else if (loading) {
    body = (
      <Group justify="center" className={classes.center}>
        <Loader aria-label={t('app.loading')} />
      </Group>
    );
  } else if (view.path.length === 0) {
    body = santito ? (
      <ChatWelcome
        santito={santito}
        title={santito.name}
        text={welcomeText}
        onStarter={(starter) => send(starter, uploads.ids)}
        startersDisabled={offline || busy}
      />
    ) : embed ? (
      <ChatWelcome santito={null} title={embed.displayName} text={embed.welcome} />
    ) : (
      <ChatWelcome
        santito={null}
        title={t('chats.welcome_title', { name: firstName })}
        text={t('pages.home.subtitle')}
      />
    );
  } else {
    body = (
      <MessageList
        view={view}
        errorCodes={thread?.errorCodes ?? {}}
        busy={busy}
        canAct={!offline}
        actions={actions}
        hasOlder={Boolean(olderCursor)}
        loadingOlder={loadingOlder}
        onLoadOlder={loadOlder}
        followSignal={followSignal}
        hideUsage={embed !== undefined}
      />
    );
  }

  // A chat that does not exist, or is another user's: the spec's 404 page, with nothing of a chat
  // around it (no header, parameters or export that would then fail).
  if (load === 'not-found') {
    return (
      <ErrorPage
        statusCode={404}
        renderBack={(label) => (
          <Button component={Link} to={lp(embed?.home ?? '/')} size="md" mt="sm">
            {label}
          </Button>
        )}
      />
    );
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a shortcut; the attach button is the accessible way
    <div
      className={classes.view}
      onDragEnter={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        dragDepth.current += 1;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) e.preventDefault();
      }}
      onDragLeave={() => {
        dragDepth.current = Math.max(0, dragDepth.current - 1);
        if (dragDepth.current === 0) setDragging(false);
      }}
      onDrop={onDrop}
      data-testid="chat-view"
    >
      <header className={classes.header}>
        <Group gap="xs" wrap="nowrap" className={classes.headerTitle}>
          {mobile && !embed ? (
            <ActionIcon
              variant="subtle"
              color="neutral.7"
              onClick={() => setUi({ chatSidebarModel: true })}
              aria-label={t('pages.chats.show_list')}
              data-testid="open-chats-list"
            >
              <IconLayoutSidebarLeftExpand size={20} />
            </ActionIcon>
          ) : null}
          <Title order={1} size="h5" className={classes.title} data-testid="chat-title">
            {title}
          </Title>
          {santito ? <SantitoHeader santito={santito} /> : null}
        </Group>
        <Group gap={4} wrap="nowrap">
          <ConnectionBadge />
          {embed ? null : (
            <Tooltip label={t('chats.params.title')} withArrow>
              <ActionIcon
                variant={paramsOpen ? 'light' : 'subtle'}
                color="neutral.7"
                onClick={() => setUi({ customParamsSidebar: !paramsOpen })}
                aria-label={t('chats.params.title')}
                aria-pressed={paramsOpen}
                data-testid="toggle-params"
              >
                <IconAdjustmentsHorizontal size={19} />
              </ActionIcon>
            </Tooltip>
          )}
          {chatId && !embed ? (
            <Menu position="bottom-end" shadow="md" width={220}>
              <Menu.Target>
                <ActionIcon
                  variant="subtle"
                  color="neutral.7"
                  aria-label={t('chats.menu')}
                  data-testid="chat-menu"
                >
                  <IconDots size={19} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{t('chats.export.title')}</Menu.Label>
                <Menu.Item leftSection={<IconFileTypeTxt size={16} />} onClick={() => exportAs('md')}>
                  {t('chats.export.markdown')}
                </Menu.Item>
                <Menu.Item leftSection={<IconJson size={16} />} onClick={() => exportAs('json')}>
                  {t('chats.export.json')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          ) : null}
        </Group>
      </header>
      <div className={classes.body}>
        <div className={classes.column}>
          {body}
          <div className={classes.composerWrap}>
            {error ? (
              <ErrorNotice
                code={error.code}
                message={error.message}
                onClose={() => {
                  setRequestError(null);
                  if (effectiveId) agents.store.dispatch({ type: 'dismiss-error', chatId: effectiveId });
                }}
              />
            ) : null}
            <Composer
              ref={composer}
              key={chatId ?? 'new'}
              offline={offline}
              busy={busy}
              onSend={send}
              onStop={stop}
              uploads={embed && !embed.allowAttachments ? undefined : uploads}
              autoFocus={!mobile}
              santitoName={santito?.name}
              initialText={chatId ? '' : initialDraft}
            />
            <ComposerHint className={classes.hint} />
          </div>
        </div>
        {!mobile && paramsPanel ? <aside className={classes.params}>{paramsPanel}</aside> : null}
      </div>
      {mobile ? (
        <LazyDrawer
          opened={paramsOpen}
          onClose={() => setUi({ customParamsSidebar: false })}
          position="right"
          size="90%"
          withCloseButton={false}
          padding={0}
        >
          {paramsPanel}
        </LazyDrawer>
      ) : null}
      {dragging ? (
        <div className={classes.dropOverlay} aria-hidden>
          <IconUpload size={36} stroke={1.5} />
          <Text fw={600}>{t('chats.attachments.drop_here')}</Text>
        </div>
      ) : null}
    </div>
  );
}
