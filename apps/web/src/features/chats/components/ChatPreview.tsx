import type { Santito } from '@assistente/contracts';
import { Group, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/index.ts';
import classes from './ChatView.module.css';
import { ChatWelcome, SantitoHeader } from './ChatWelcome.tsx';
import { Composer, ComposerHint, type ComposerUploads } from './Composer.tsx';

/** Attachments allowed, none picked: the composer's paperclip shows, and does nothing. */
const NO_UPLOADS: ComposerUploads = {
  items: [],
  uploading: false,
  ids: [],
  add: () => {},
  remove: () => {},
  clear: () => {},
};

const keepText = () => false;
const nothing = () => {};

/**
 * A new embedded chat as a visitor first sees it, with nothing live behind it (no socket, no
 * session): the Embeds tab's preview. Built from ChatView's own parts, so it looks the same.
 */
export function ChatPreview({
  santito,
  displayName,
  welcome,
  allowAttachments,
}: {
  santito: Pick<Santito, 'name' | 'avatar' | 'starters'> | null;
  displayName: string;
  welcome: string;
  allowAttachments: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className={classes.view}>
      <header className={classes.header}>
        <Group gap="xs" wrap="nowrap" className={classes.headerTitle}>
          <Title order={1} size="h5" className={classes.title}>
            {t('chats.new_chat')}
          </Title>
          {santito ? <SantitoHeader santito={santito} /> : null}
        </Group>
      </header>
      <div className={classes.body}>
        <div className={classes.column}>
          <ChatWelcome santito={santito} title={displayName} text={welcome} />
          <div className={classes.composerWrap}>
            <Composer
              offline={false}
              busy={false}
              onSend={keepText}
              onStop={nothing}
              uploads={allowAttachments ? NO_UPLOADS : undefined}
              santitoName={santito?.name}
            />
            <ComposerHint className={classes.hint} />
          </div>
        </div>
      </div>
    </div>
  );
}
