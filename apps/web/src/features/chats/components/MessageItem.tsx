import type { Message, MessagePart } from '@assistente/contracts';
import { ActionIcon, Button, Group, Text, Textarea } from '@mantine/core';
import {
  IconChevronLeft,
  IconChevronRight,
  IconFileAlert,
  IconPencil,
  IconPlayerStopFilled,
  IconRefresh,
} from '@tabler/icons-react';
import { memo, type ReactNode, useCallback, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { CopyIconButton } from '../../../ui/CopyIconButton.tsx';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import { Citations } from '../../knowledge/index.ts';
import { UsedMemoryBadge } from '../../memory/index.ts';
import { citationAnchor, citedNumbers } from '../markdown/citations.ts';
import { Markdown, PlainText } from '../markdown/Markdown.tsx';
import { AttachmentChips } from './AttachmentChips.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import classes from './MessageItem.module.css';
import { type DecideTool, ToolStep } from './ToolStep.tsx';

export interface MessageActions {
  regenerate(messageId: string): void;
  edit(messageId: string, content: string): void;
  selectSibling(parentKey: string, messageId: string): void;
  /** Allows or denies a tool call the answer waits on. */
  approveTool: DecideTool;
}

export interface MessageItemProps {
  message: Message;
  actions: MessageActions;
  /** An answer is being generated in the chat: regenerate and edit wait. */
  busy: boolean;
  /** The composer is usable (socket ready). */
  canAct: boolean;
  errorCode?: string | undefined;
  siblingIndex?: number | undefined;
  siblingCount?: number | undefined;
  prevSibling?: string | null | undefined;
  nextSibling?: string | null | undefined;
  parentKey?: string | undefined;
  /** Leaves the answer's token count out. */
  hideUsage?: boolean;
  /** The latest message of the chat: only there may a tool call waiting for the person be decided. */
  latest?: boolean;
  /** Shown, not worked on (a shared chat): copy only; no edit, regenerate or other versions. */
  readOnly?: boolean;
}

/** Where the text after the last part begins: the text parts are `content` cut at each tool call. */
function partsLength(parts: MessagePart[]): number {
  return parts.reduce((n, p) => (p.type === 'text' ? n + p.text.length : n), 0);
}

function BranchNav({
  index,
  count,
  prev,
  next,
  parentKey,
  onSelect,
}: {
  index: number;
  count: number;
  prev: string | null;
  next: string | null;
  parentKey: string;
  onSelect: (parentKey: string, id: string) => void;
}) {
  const { t } = useTranslation();
  const step = (to: string | null, label: string, icon: ReactNode) => (
    <ActionIcon
      variant="subtle"
      color="neutral.6"
      size="sm"
      disabled={!to}
      onClick={() => to && onSelect(parentKey, to)}
      aria-label={label}
    >
      {icon}
    </ActionIcon>
  );
  return (
    <Group gap={0} className={classes.branchNav} aria-label={t('chats.message.branches')} role="group">
      {step(prev, t('chats.message.previous_version'), <IconChevronLeft size={15} />)}
      <Text size="xs" c="dimmed" className={classes.branchCount} data-testid="branch-position">
        {index}/{count}
      </Text>
      {step(next, t('chats.message.next_version'), <IconChevronRight size={15} />)}
    </Group>
  );
}

function CopyAction({ text }: { text: string }) {
  const { t } = useTranslation();
  return <CopyIconButton value={text} label={t('chats.message.copy')} iconSize={15} />;
}

/** One message: the user's as plain text, the assistant's as sanitised Markdown, with its actions. */
export const MessageItem = memo(function MessageItem({
  message,
  actions,
  busy,
  canAct,
  errorCode,
  siblingIndex,
  siblingCount,
  prevSibling,
  nextSibling,
  parentKey,
  hideUsage = false,
  latest = false,
  readOnly = false,
}: MessageItemProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.content);
  const user = message.role === 'user';
  const streaming = message.status === 'streaming';
  const { messageId, content, citations } = message;
  const cited = useMemo(
    () => (citations?.length ? { messageId, sources: citations } : undefined),
    [messageId, citations],
  );
  // The sources the answer cites; when it cites none, every source it was given.
  const shownSources = useMemo(() => {
    const count = citations?.length ?? 0;
    const numbers = citedNumbers(content, count);
    return numbers.length > 0 ? numbers : Array.from({ length: count }, (_, i) => i + 1);
  }, [content, citations]);
  const anchorOf = useCallback((n: number) => citationAnchor(messageId, n), [messageId]);
  const parts = message.parts?.length ? message.parts : undefined;
  const trailing = parts ? content.slice(partsLength(parts)) : content;
  // A tool running or waiting shows its own state: no "thinking" dots beside it.
  const toolActive = parts?.some(
    (p) => p.type === 'tool' && (p.status === 'running' || p.status === 'awaiting_approval'),
  );

  const branchNav =
    !readOnly && siblingCount && siblingCount > 1 && parentKey ? (
      <BranchNav
        index={siblingIndex ?? 1}
        count={siblingCount}
        prev={prevSibling ?? null}
        next={nextSibling ?? null}
        parentKey={parentKey}
        onSelect={actions.selectSibling}
      />
    ) : null;

  if (user) {
    return (
      <div
        className={classes.userRow}
        data-testid="message"
        data-role="user"
        data-message-id={message.messageId}
      >
        {editing ? (
          <form
            className={classes.editForm}
            onSubmit={(e) => {
              e.preventDefault();
              const content = draft.trim();
              if (!content) return;
              setEditing(false);
              if (content !== message.content) actions.edit(message.messageId, content);
            }}
          >
            <Textarea
              autosize
              minRows={2}
              maxRows={12}
              autoFocus
              value={draft}
              onChange={(e) => setDraft(e.currentTarget.value)}
              aria-label={t('chats.message.edit_label')}
              onKeyDown={(e) => {
                if (e.key === 'Escape') setEditing(false);
              }}
            />
            <Group justify="flex-end" gap="xs" mt="xs">
              <Button variant="default" size="xs" onClick={() => setEditing(false)}>
                {t('chats.message.cancel')}
              </Button>
              <Button type="submit" size="xs" disabled={!draft.trim() || busy || !canAct}>
                {t('chats.message.save_and_send')}
              </Button>
            </Group>
          </form>
        ) : (
          <>
            <div className={classes.userBubble}>
              <PlainText content={message.content} />
              {message.attachments?.length ? <AttachmentChips attachments={message.attachments} /> : null}
            </div>
            <Group gap={2} className={classes.actions} justify="flex-end">
              {branchNav}
              <CopyAction text={message.content} />
              {readOnly ? null : (
                <Tooltip label={t('chats.message.edit')} withArrow>
                  <ActionIcon
                    variant="subtle"
                    color="neutral.6"
                    size="sm"
                    disabled={busy || !canAct}
                    onClick={() => {
                      setDraft(message.content);
                      setEditing(true);
                    }}
                    aria-label={t('chats.message.edit')}
                  >
                    <IconPencil size={15} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
          </>
        )}
      </div>
    );
  }

  return (
    <div
      className={classes.assistantRow}
      data-testid="message"
      data-role="assistant"
      data-status={message.status}
      data-message-id={message.messageId}
      aria-busy={streaming || undefined}
    >
      {parts?.map((part, i) =>
        part.type === 'text' ? (
          part.text ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts are only ever appended
            <Markdown key={`text-${i}`} content={part.text} citations={cited} />
          ) : null
        ) : (
          <ToolStep
            key={part.toolCallId}
            part={part}
            onDecide={latest ? actions.approveTool : undefined}
            disabled={!canAct}
          />
        ),
      )}
      {trailing ? (
        <Markdown content={trailing} streaming={streaming} citations={cited} />
      ) : streaming && !toolActive ? (
        <span className={classes.typing} role="status" aria-label={t('chats.message.thinking')}>
          <span />
          <span />
          <span />
        </span>
      ) : null}
      {message.citations?.length && !streaming ? (
        <Citations citations={message.citations} shown={shownSources} anchorOf={anchorOf} />
      ) : null}
      {!streaming
        ? message.attachmentReadings?.map((r) => (
            <Text
              key={r.attachmentId}
              size="xs"
              c="dimmed"
              mt={4}
              className={classes.note}
              data-testid="attachment-reading"
            >
              <IconFileAlert size={13} />{' '}
              {t(r.reading === 'partial' ? 'chats.message.read_partly' : 'chats.message.not_read', {
                name: r.name,
              })}
            </Text>
          ))
        : null}
      {message.usedMemory && !streaming && !readOnly ? <UsedMemoryBadge /> : null}
      {message.status === 'stopped' ? (
        <Text size="xs" c="dimmed" mt={4} className={classes.note}>
          <IconPlayerStopFilled size={11} /> {t('chats.message.stopped')}
        </Text>
      ) : null}
      {message.status === 'error' ? (
        <div className={classes.errorBox}>
          <ErrorNotice
            code={errorCode ?? message.errorCode ?? 'PROVIDER_ERROR'}
            message={message.error ?? t('chats.errors.PROVIDER_ERROR')}
            reason={message.errorReason}
            compact
          />
        </div>
      ) : null}
      {!streaming ? (
        <Group gap={2} className={classes.actions}>
          {branchNav}
          {message.content ? <CopyAction text={message.content} /> : null}
          {readOnly ? null : (
            <Tooltip label={t('chats.message.regenerate')} withArrow>
              <ActionIcon
                variant="subtle"
                color="neutral.6"
                size="sm"
                disabled={busy || !canAct}
                onClick={() => actions.regenerate(message.messageId)}
                aria-label={t('chats.message.regenerate')}
              >
                <IconRefresh size={15} />
              </ActionIcon>
            </Tooltip>
          )}
          {message.usage && !hideUsage ? (
            <Text size="xs" c="dimmed" className={classes.usage}>
              {t('chats.message.tokens', { total: String(message.usage.totalTokens) })}
            </Text>
          ) : null}
        </Group>
      ) : null}
    </div>
  );
});
