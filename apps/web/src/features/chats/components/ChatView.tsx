import type { Chat, ChatParams, Santito } from '@assistente/contracts';
import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import {
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Link, useNavigate } from 'react-router';
import { chatPath } from '../../../lib/chatPaths.ts';
import { useTranslation } from '../../../lib/i18n/index.ts';
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
import { useOlderMessages, useOpenChat } from '../hooks/useChatMessages.ts';
import { chatListCache } from '../hooks/useChatsList.ts';
import { useDraftChat } from '../hooks/useDraftChat.ts';
import { useFileDrop } from '../hooks/useFileDrop.ts';
import { useUploads } from '../hooks/useUploads.ts';
import { type RequestError, streamingIds } from '../lib/chatStore.ts';
import { visibleThread } from '../lib/thread.ts';
import { ChatHeader } from './ChatHeader.tsx';
import classes from './ChatView.module.css';
import { ChatWelcome } from './ChatWelcome.tsx';
import { Composer, type ComposerHandle, ComposerHint } from './Composer.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import type { MessageActions } from './MessageItem.tsx';
import { MessageList } from './MessageList.tsx';
import { ChatShareContext } from './ReadOnlyMessages.tsx';

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

  const { draftChatId, ensureChat, keep: keepDraft } = useDraftChat(agents, chatId, agentId);
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

  const [requestError, setRequestError] = useState<RequestError | null>(null);
  const [awaiting, setAwaiting] = useState(false);
  const [followSignal, setFollowSignal] = useState(0);
  const [draftParams, setDraftParams] = useState<ChatParams>({});
  // The share dialog, where the layout gives one (not in an embed).
  const ShareDialog = useContext(ChatShareContext);
  const [sharing, setSharing] = useState(false);

  const load = useOpenChat(agents, chatId);

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
            keepDraft();
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
          (error: RequestError) => setRequestError(error),
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
      keepDraft,
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
    approveTool: (toolCallId, decision, remember) => {
      if (effectiveId) agents.approveTool(effectiveId, toolCallId, decision, remember);
    },
  };
  const actions = useMemo<MessageActions>(
    () => ({
      regenerate: (id) => actionsRef.current?.regenerate(id),
      edit: (id, content) => actionsRef.current?.edit(id, content),
      selectSibling: (key, id) => actionsRef.current?.selectSibling(key, id),
      approveTool: (toolCallId, decision, remember) =>
        actionsRef.current?.approveTool(toolCallId, decision, remember),
    }),
    [],
  );

  const olderCursor = thread?.olderCursor ?? null;
  const { loadingOlder, loadOlder } = useOlderMessages(agents, effectiveId, olderCursor);

  const stop = () => {
    if (effectiveId) agents.stop(effectiveId);
  };

  const exportAs = (format: 'md' | 'json') => {
    if (!chatId) return;
    void downloadFile(exportPath(chatId, format), `chat.${format}`).catch(() =>
      setRequestError({ code: 'INTERNAL', message: '' }),
    );
  };

  const drop = useFileDrop((files) => {
    if (files.length > 0 && !offline && (!embed || embed.allowAttachments)) uploads.add(files);
  });

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

  // Tooltips and menus are not fetched once the messages show, as the other pages' are: on the chats
  // and in the embedded chat they wait for the first sign of use (ui/DeferredFloating.tsx), so a
  // chat that is only read never downloads them.
  const loading =
    Boolean(chatId) && load !== 'not-found' && load !== 'error' && (load === 'loading' || !thread?.loaded);

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
    // Dropping files is a shortcut; the attach button is the accessible way.
    <div className={classes.view} {...drop.handlers} data-testid="chat-view">
      <ChatHeader
        title={title}
        santito={santito}
        mobile={mobile}
        embedded={embed !== undefined}
        paramsOpen={paramsOpen}
        onExport={chatId ? exportAs : null}
        onShare={chatId && ShareDialog && !embed ? () => setSharing(true) : null}
      />
      <div className={classes.body}>
        <div className={classes.column}>
          {body}
          <div className={classes.composerWrap}>
            {error ? (
              <ErrorNotice
                code={error.code}
                message={error.message}
                resetsAt={error.resetsAt}
                kinds={error.kinds}
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
              promptLibrary={embed === undefined}
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
      {chatId && ShareDialog && !embed ? (
        <ShareDialog opened={sharing} onClose={() => setSharing(false)} chatId={chatId} leaf={view.leafId} />
      ) : null}
      {drop.dragging ? (
        <div className={classes.dropOverlay} aria-hidden>
          <IconUpload size={36} stroke={1.5} />
          <Text fw={600}>{t('chats.attachments.drop_here')}</Text>
        </div>
      ) : null}
    </div>
  );
}
