import type { Chat } from '@assistente/contracts';
import { ActionIcon, TextInput } from '@mantine/core';
import { IconDots, IconPencil, IconPin, IconPinnedOff, IconTrash } from '@tabler/icons-react';
import { memo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Menu } from '../../../ui/DeferredFloating.tsx';
import classes from './ChatsSidebar.module.css';

export interface ChatListItemProps {
  chat: Chat;
  href: string;
  active: boolean;
  onRename: (chat: Chat, title: string) => void;
  onPin: (chat: Chat) => void;
  onDelete: (chat: Chat) => void;
  onOpen?: () => void;
}

/** One row of the chats list: link, inline rename, and a menu to pin, rename or delete. */
export const ChatListItem = memo(function ChatListItem({
  chat,
  href,
  active,
  onRename,
  onPin,
  onDelete,
  onOpen,
}: ChatListItemProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(chat.title);
  const title = chat.title || t('chats.untitled');

  if (editing) {
    const finish = (save: boolean) => {
      setEditing(false);
      const next = draft.trim();
      if (save && next && next !== chat.title) onRename(chat, next);
    };
    return (
      <div className={classes.row} data-active={active || undefined}>
        <TextInput
          size="xs"
          autoFocus
          value={draft}
          maxLength={200}
          aria-label={t('chats.list.rename_label')}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onFocus={(e) => e.currentTarget.select()}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              finish(true);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              finish(false);
            }
          }}
          onBlur={() => finish(true)}
          className={classes.renameInput}
        />
      </div>
    );
  }

  return (
    <div className={classes.row} data-active={active || undefined} data-testid="chat-list-item">
      <Link
        to={href}
        className={classes.link}
        aria-current={active ? 'page' : undefined}
        onClick={onOpen}
        onDoubleClick={(e) => {
          e.preventDefault();
          setDraft(chat.title);
          setEditing(true);
        }}
        title={title}
      >
        {chat.pinned ? (
          <IconPin size={14} stroke={1.8} className={classes.pin} aria-label={t('chats.list.pinned')} />
        ) : null}
        <span className={classes.title}>{title}</span>
      </Link>
      <Menu position="bottom-end" withinPortal shadow="md" width={190}>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="neutral.6"
            size="sm"
            className={classes.menuButton}
            aria-label={t('chats.list.actions', { title })}
          >
            <IconDots size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconPencil size={15} />}
            onClick={() => {
              setDraft(chat.title);
              setEditing(true);
            }}
          >
            {t('chats.list.rename')}
          </Menu.Item>
          <Menu.Item
            leftSection={chat.pinned ? <IconPinnedOff size={15} /> : <IconPin size={15} />}
            onClick={() => onPin(chat)}
          >
            {chat.pinned ? t('chats.list.unpin') : t('chats.list.pin')}
          </Menu.Item>
          <Menu.Item color="error" leftSection={<IconTrash size={15} />} onClick={() => onDelete(chat)}>
            {t('chats.list.delete')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </div>
  );
});
