import { ActionIcon, Center, Loader } from '@mantine/core';
import { IconArrowDown } from '@tabler/icons-react';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import type { ThreadView } from '../lib/thread.ts';
import { type MessageActions, MessageItem } from './MessageItem.tsx';
import classes from './MessageList.module.css';

/** Within this many pixels of the end counts as "at the latest message". */
const BOTTOM_SLACK_PX = 48;
/** Older messages load when the user scrolls this close to the top. */
const TOP_LOAD_PX = 320;

export interface MessageListProps {
  view: ThreadView;
  errorCodes: Readonly<Record<string, string>>;
  busy: boolean;
  canAct: boolean;
  actions: MessageActions;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Changes when the user sends: the list jumps to the end and follows again. */
  followSignal: number;
  footer?: ReactNode;
  /** Answers' token counts are left out (a visitor of an embed has no use for them). */
  hideUsage?: boolean;
}

/**
 * The messages, oldest at the top. It follows a streaming answer while the user is at the end,
 * stops following once they scroll up (a "jump to latest" button appears), and keeps the
 * reading position when older messages are prepended.
 */
export function MessageList({
  view,
  errorCodes,
  busy,
  canAct,
  actions,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  followSignal,
  footer,
  hideUsage = false,
}: MessageListProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const [atBottom, setAtBottom] = useState(true);

  const toBottom = useCallback((smooth = false) => {
    const el = scrollRef.current;
    if (!el) return;
    if (smooth && typeof el.scrollTo === 'function')
      el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
    else el.scrollTop = el.scrollHeight;
  }, []);

  // Any growth (a delta, a highlighted code block, an image) keeps the end in view while following.
  useEffect(() => {
    const content = contentRef.current;
    if (!content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (follow.current) toBottom();
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, [toBottom]);

  const firstId = view.path[0]?.messageId;
  const lastMessage = view.path[view.path.length - 1];
  const lastLength = lastMessage?.content.length ?? 0;

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const saved = anchor.current;
    if (el && saved && firstId) {
      el.scrollTop = saved.top + (el.scrollHeight - saved.height);
      anchor.current = null;
    }
  }, [firstId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows new content
  useLayoutEffect(() => {
    if (follow.current) toBottom();
  }, [view.path.length, lastLength, toBottom]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the signal is the trigger
  useLayoutEffect(() => {
    if (followSignal === 0) return;
    follow.current = true;
    setAtBottom(true);
    toBottom();
  }, [followSignal]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
    follow.current = bottom;
    setAtBottom(bottom);
    if (el.scrollTop < TOP_LOAD_PX && hasOlder && !loadingOlder && !anchor.current) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      onLoadOlder();
    }
  };

  // A short first page may not scroll at all: fetch older ones until it does.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !hasOlder || loadingOlder || anchor.current) return;
    if (el.scrollHeight <= el.clientHeight + TOP_LOAD_PX) {
      anchor.current = { height: el.scrollHeight, top: el.scrollTop };
      onLoadOlder();
    }
  }, [hasOlder, loadingOlder, onLoadOlder]);

  return (
    <div className={classes.wrap}>
      <div
        ref={scrollRef}
        className={classes.scroller}
        onScroll={onScroll}
        data-testid="message-list"
        tabIndex={-1}
      >
        <div ref={contentRef} className={classes.content}>
          {loadingOlder ? (
            <Center py="sm">
              <Loader size="sm" aria-label={t('app.loading')} />
            </Center>
          ) : null}
          {view.path.map((message) => {
            const sib = view.siblings[message.messageId];
            return (
              <MessageItem
                key={message.messageId}
                message={message}
                actions={actions}
                busy={busy}
                canAct={canAct}
                errorCode={errorCodes[message.messageId]}
                siblingIndex={sib?.index}
                siblingCount={sib?.count}
                prevSibling={sib?.prev}
                nextSibling={sib?.next}
                parentKey={sib?.parentKey}
                hideUsage={hideUsage}
                latest={message === lastMessage}
              />
            );
          })}
          {footer}
        </div>
      </div>
      {!atBottom ? (
        <Tooltip label={t('chats.jump_to_latest')} withArrow>
          <ActionIcon
            className={classes.jump}
            radius="xl"
            size="lg"
            variant="default"
            onClick={() => {
              follow.current = true;
              setAtBottom(true);
              toBottom(true);
            }}
            aria-label={t('chats.jump_to_latest')}
            data-testid="jump-to-latest"
          >
            <IconArrowDown size={18} />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </div>
  );
}
