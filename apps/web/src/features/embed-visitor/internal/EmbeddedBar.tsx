import { ActionIcon } from '@mantine/core';
import { IconHistory, IconMessagePlus, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/index.ts';
import { Tooltip } from '../../../ui/DeferredFloating.tsx';
import classes from '../EmbeddedChat.module.css';

/** The embedded chat's coloured bar: the embed's name, the visitor's history, a new chat and close. */
export function EmbeddedBar({
  name,
  showHistory,
  onHistory,
  newChatTo,
  onNewChat,
  onClose,
}: {
  name: string;
  showHistory: boolean;
  onHistory: () => void;
  /** The new-chat page (locale included). */
  newChatTo: string;
  onNewChat: () => void;
  /** Closes the launcher's panel; without it (not in a launcher's frame) there is no close. */
  onClose?: (() => void) | null;
}) {
  const { t } = useTranslation();
  return (
    <header className={classes.bar}>
      <span className={classes.name} data-testid="embedded-name">
        {name}
      </span>
      <Tooltip label={t('embeddedChat.history')} withArrow>
        <ActionIcon
          variant="transparent"
          className={classes.barButton}
          aria-label={t('embeddedChat.history')}
          aria-pressed={showHistory}
          onClick={onHistory}
          data-testid="embedded-history"
        >
          <IconHistory size={20} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('embeddedChat.new_chat')} withArrow>
        <ActionIcon
          component={Link}
          to={newChatTo}
          variant="transparent"
          className={classes.barButton}
          aria-label={t('embeddedChat.new_chat')}
          onClick={onNewChat}
          data-testid="embedded-new-chat"
        >
          <IconMessagePlus size={20} />
        </ActionIcon>
      </Tooltip>
      {onClose ? (
        <Tooltip label={t('embeddedChat.close')} withArrow>
          <ActionIcon
            variant="transparent"
            className={classes.barButton}
            aria-label={t('embeddedChat.close')}
            onClick={onClose}
            data-testid="embedded-close"
          >
            <IconX size={20} />
          </ActionIcon>
        </Tooltip>
      ) : null}
    </header>
  );
}
